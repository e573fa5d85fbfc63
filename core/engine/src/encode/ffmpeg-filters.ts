import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { runProcess } from '../system/run-process.js';

const cache = new Map<string, Promise<Set<string>>>();

/** Whether this ffmpeg has a filter (e.g. `zscale`, which needs libzimg); listed once per binary. */
export async function ffmpegHasFilter(name: string, ffmpeg?: string): Promise<boolean> {
  return (await listed(ffmpegPath(ffmpeg), '-filters', /^\s*[.A-Z|]{2,4}\s+(\S+)\s+\S+->\S+/gm)).has(name);
}

/**
 * Whether this ffmpeg has a decoder (e.g. `libvpx-vp9`, the only one that reads VP9's alpha
 * channel; the native `vp9` decoder drops it); listed once per binary.
 */
export async function ffmpegHasDecoder(name: string, ffmpeg?: string): Promise<boolean> {
  return (await listed(ffmpegPath(ffmpeg), '-decoders', /^\s*[VAS][.A-Z]{5}\s+(\S+)\s/gm)).has(name);
}

function listed(binary: string, flag: '-filters' | '-decoders', line: RegExp): Promise<Set<string>> {
  const key = `${binary}\0${flag}`;
  let names = cache.get(key);
  if (!names) {
    names = runProcess(binary, ['-hide_banner', flag], { timeoutMs: 15_000 }).then((result) => new Set([...result.stdout.matchAll(line)].map((m) => m[1]!)));
    cache.set(key, names);
    names.catch(() => cache.delete(key));
  }
  return names;
}
