import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedStream {
  codec_name: string;
  codec_type: 'video' | 'audio';
  pix_fmt?: string;
  width?: number;
  height?: number;
  nb_read_frames?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  tags?: Record<string, string>;
}

/** ffprobe with frame counting: streams, container duration and format name. */
export async function probe(file: string): Promise<{ streams: ProbedStream[]; duration: number; formatName: string }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], {
    maxBuffer: 16 << 20,
  });
  const data = JSON.parse(stdout) as { streams: ProbedStream[]; format: { duration?: string; format_name: string } };
  return { streams: data.streams, duration: Number(data.format.duration ?? NaN), formatName: data.format.format_name };
}

/** Every frame of the first video stream, decoded to raw RGB24 (one Buffer per frame). */
export async function decodeFrames(file: string, width: number, height: number): Promise<Buffer[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-vsync', 'passthrough', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 256 << 20,
    },
  );
  const size = width * height * 3;
  const frames: Buffer[] = [];
  for (let offset = 0; offset + size <= stdout.length; offset += size) frames.push(stdout.subarray(offset, offset + size));
  return frames;
}

/** The RGB of one pixel of a decoded frame. */
export function pixel(frame: Buffer, width: number, x: number, y: number): [number, number, number] {
  const i = (y * width + x) * 3;
  return [frame[i]!, frame[i + 1]!, frame[i + 2]!];
}

/** Mono float samples of the first audio stream at `rate` Hz. */
export async function decodeAudio(file: string, rate = 8000): Promise<Float32Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', String(rate), '-f', 'f32le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    },
  );
  return new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
}

/** Root mean square of samples in [from, to) seconds. */
export function rms(samples: Float32Array, rate: number, from: number, to: number): number {
  const a = Math.floor(from * rate);
  const b = Math.min(samples.length, Math.floor(to * rate));
  let sum = 0;
  for (let i = a; i < b; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / Math.max(1, b - a));
}

/** Runs ffmpeg to make a test input (tone, clip). */
export async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', ...args]);
}
