import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { runProcess } from '../system/run-process.js';

const cache = new Map<string, Promise<Set<string>>>();

/** Whether this ffmpeg has a filter (e.g. `zscale`, which needs libzimg); listed once per binary. */
export async function ffmpegHasFilter(name: string, ffmpeg?: string): Promise<boolean> {
  const binary = ffmpegPath(ffmpeg);
  let filters = cache.get(binary);
  if (!filters) {
    filters = runProcess(binary, ['-hide_banner', '-filters'], { timeoutMs: 15_000 }).then(
      (result) => new Set([...result.stdout.matchAll(/^\s*[.A-Z|]{2,4}\s+(\S+)\s+\S+->\S+/gm)].map((m) => m[1]!)),
    );
    cache.set(binary, filters);
    filters.catch(() => cache.delete(binary));
  }
  return (await filters).has(name);
}
