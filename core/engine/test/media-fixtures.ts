import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { runProcess } from '../src/system/run-process.js';

/** A temp folder per test file, removed by the returned cleanup. */
export async function tempDir(prefix = 'sf-engine-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** RGBA PNG frames: frame i is a solid colour with red = 20 * i; the right half is transparent when alpha. */
export function pngFrames(count: number, width: number, height: number, alpha = false): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const png = new PNG({ width, height });
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        png.data[o] = (20 * i) % 256;
        png.data[o + 1] = 120;
        png.data[o + 2] = 200;
        png.data[o + 3] = alpha && x >= width / 2 ? 0 : 255;
      }
    }
    return PNG.sync.write(png);
  });
}

/** JPEG frames made by ffmpeg's test source. */
export async function jpegFrames(count: number, width: number, height: number, dir: string): Promise<Buffer[]> {
  const out = path.join(dir, 'jpeg-src');
  await runProcess('mkdir', ['-p', out]);
  await ff(['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=10`, '-frames:v', String(count), path.join(out, 'f_%03d.jpg')]);
  const names = (await readdir(out)).sort();
  return Promise.all(names.map((name) => readFile(path.join(out, name))));
}

/** A sine tone of `seconds` in an m4a file. */
export async function sineAudio(file: string, seconds: number, frequency = 440): Promise<string> {
  await ff(['-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=${seconds}`, '-c:a', 'aac', file]);
  return file;
}

export async function ff(args: string[]): Promise<string> {
  const result = await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (result.code !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr}`);
  return result.stderr;
}

/** Decoded frame count of the first video stream (ffprobe -count_frames). */
export async function countFrames(file: string): Promise<number> {
  const result = await runProcess('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(result.stdout.trim());
}

/** ffmpeg's log for a filter run over a file (e.g. silencedetect), from stderr. */
export async function filterLog(file: string, filter: string): Promise<string> {
  const result = await runProcess('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', filter, '-f', 'null', '-']);
  return result.stderr;
}

/** Every frame of the first video stream decoded to raw RGB24, one Buffer of width*height*3 bytes per frame. */
export async function decodeRgbFrames(file: string, width: number, height: number): Promise<Buffer[]> {
  const stdout = await new Promise<Buffer>((resolve, reject) =>
    execFile(
      'ffmpeg',
      ['-v', 'error', '-i', file, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 64 << 20 },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  );
  const size = width * height * 3;
  const frames: Buffer[] = [];
  for (let offset = 0; offset + size <= stdout.length; offset += size) frames.push(stdout.subarray(offset, offset + size));
  return frames;
}
