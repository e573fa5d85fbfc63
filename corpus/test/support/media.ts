import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedVideo {
  codec: string;
  width: number;
  height: number;
  frames: number;
  /** webm: the `alpha_mode` tag VP9 with alpha carries. */
  alphaMode?: string;
}

/** ffprobe of the first video stream, frames counted by decoding. */
export async function probeVideo(file: string): Promise<ProbedVideo> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames:stream_tags',
    '-of',
    'json',
    file,
  ]);
  const stream = (JSON.parse(stdout) as { streams: Array<Record<string, unknown>> }).streams[0] ?? {};
  const tags = (stream.tags ?? {}) as Record<string, string>;
  return {
    codec: String(stream.codec_name),
    width: Number(stream.width),
    height: Number(stream.height),
    frames: Number(stream.nb_read_frames),
    // Matroska writes the tag as ALPHA_MODE.
    ...(tags.ALPHA_MODE === undefined ? {} : { alphaMode: tags.ALPHA_MODE }),
  };
}

/**
 * Every frame as RGBA. webm is decoded with libvpx-vp9 (ffmpeg's own VP9 decoder drops the alpha
 * plane); ProRes 4444 and H.264 with ffmpeg's defaults (H.264 frames are opaque).
 */
export async function decodeRgba(file: string, width: number, height: number): Promise<Buffer[]> {
  const decoder = file.endsWith('.webm') ? ['-c:v', 'libvpx-vp9'] : [];
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', ...decoder, '-i', file, '-map', '0:v:0', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-vsync', 'passthrough', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 512 << 20 },
  );
  const size = width * height * 4;
  const frames: Buffer[] = [];
  for (let offset = 0; offset + size <= stdout.length; offset += size) frames.push(stdout.subarray(offset, offset + size));
  return frames;
}

export type Rgba = [number, number, number, number];

export function pixelAt(frame: Buffer, width: number, x: number, y: number): Rgba {
  const i = (y * width + x) * 4;
  return [frame[i]!, frame[i + 1]!, frame[i + 2]!, frame[i + 3]!];
}

export function hexToRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

export function near(actual: readonly number[], expected: readonly number[], tolerance: number): boolean {
  return expected.every((v, i) => Math.abs((actual[i] ?? 0) - v) <= tolerance);
}
