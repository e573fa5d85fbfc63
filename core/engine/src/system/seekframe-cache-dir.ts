import os from 'node:os';
import path from 'node:path';

/**
 * Where Seekframe keeps per-machine facts (benchmark recommendation, browser probes):
 * $SEEKFRAME_CACHE_DIR, else $XDG_CACHE_HOME/seekframe, else ~/.cache/seekframe.
 */
export function seekframeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEEKFRAME_CACHE_DIR) return env.SEEKFRAME_CACHE_DIR;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'seekframe');
}
