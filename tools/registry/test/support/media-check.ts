import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  nb_read_frames?: string;
}

/** ffprobe of a media file: its streams (frames counted) and duration. */
export async function probe(file: string): Promise<{ streams: ProbedStream[]; duration: number }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,pix_fmt,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  const info = JSON.parse(stdout) as { streams: ProbedStream[]; format: { duration: string } };
  return { streams: info.streams, duration: Number(info.format.duration) };
}

/** The frame at `seconds`, scaled to width x height, as packed RGB bytes. */
export async function frameRgb(file: string, seconds: number, width: number, height: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:${height}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (stdout.length !== width * height * 3) throw new Error(`ffmpeg gave ${stdout.length} bytes for a ${width}x${height} frame of ${file}`);
  return stdout;
}

/** `#rrggbb` as [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** Share of pixels within `tolerance` (per channel) of a colour: lossy video moves colours a little. */
export function shareNear(frame: Buffer, colour: [number, number, number], tolerance = 24): number {
  let near = 0;
  for (let i = 0; i < frame.length; i += 3) {
    if (
      Math.abs(frame[i]! - colour[0]) <= tolerance &&
      Math.abs(frame[i + 1]! - colour[1]) <= tolerance &&
      Math.abs(frame[i + 2]! - colour[2]) <= tolerance
    )
      near += 1;
  }
  return near / (frame.length / 3);
}
