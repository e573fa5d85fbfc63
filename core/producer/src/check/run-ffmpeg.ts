import { execFile } from 'node:child_process';
import { SeekframeError } from '@seekframe/composition';

/**
 * One short ffmpeg job run in `cwd`, so its files can be named relative to it (a filter graph
 * then needs no path escaping). Rejects with `ffmpeg-exited` and ffmpeg's last lines.
 */
export function runFfmpeg(
  ffmpeg: string,
  args: readonly string[],
  options: { cwd: string; what: string; signal?: AbortSignal },
): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      ffmpeg,
      args,
      { cwd: options.cwd, maxBuffer: 4 * 1024 * 1024, ...(options.signal ? { signal: options.signal } : {}) },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const tail = String(stderr).trim().split('\n').slice(-8).join('\n');
        reject(
          new SeekframeError('ffmpeg-exited', `ffmpeg could not ${options.what}: ${tail || error.message}`, {
            stage: 'encode',
            cause: error,
          }),
        );
      },
    );
  });
}
