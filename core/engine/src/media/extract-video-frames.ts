import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { mediaFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { probeMedia, type MediaInfo } from './probe-media.js';
import { TONE_MAP_TO_SDR } from '../encode/tone-map-filter.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export type VideoFrameFormat = 'jpg' | 'png';

/** `auto` keeps alpha when the source has it (png), else uses the smaller, faster jpg. */
export function chooseVideoFrameFormat(choice: 'auto' | VideoFrameFormat, probe: Pick<MediaInfo, 'hasAlpha'>): VideoFrameFormat {
  if (choice !== 'auto') return choice;
  return probe.hasAlpha ? 'png' : 'jpg';
}

export interface ExtractOptions {
  /** The render frame rate: frames are taken at n / fps seconds from the source's t=0. */
  fps: number | { num: number; den: number };
  format: VideoFrameFormat;
  width?: number;
  height?: number;
  /** A probe of `src` if the caller has one (saves a second ffprobe run). */
  probe?: MediaInfo;
  ffmpeg?: string;
  signal?: AbortSignal;
  /**
   * The source is HDR (PQ/HLG): tone-map it into the page's SDR range (tone-map-filter.ts)
   * instead of letting the conversion clip everything above SDR white; png frames are 16-bit.
   */
  toneMap?: boolean;
  /**
   * Only output frames [start, end) (0-based, at the render rate from the source's t=0): a chunk
   * of a split render needs only its window. Files keep their numbers (frame `start` is
   * `frame_<start+1>`), so the page's frame index means the same frame as in a full extraction;
   * decoding stops a second after the window.
   */
  frames?: { start: number; end: number };
}

export interface ExtractResult {
  count: number;
  /** printf pattern, 1-based: `frame_000001.jpg` is t=0. */
  pattern: string;
  /** Absolute path of the pattern inside outDir. */
  path: string;
}

/**
 * Decodes a video once into still frames at the render rate, so the page can show exact frames
 * instead of seeking a <video> element (which is neither frame-exact nor fast).
 */
export async function extractVideoFrames(src: string, outDir: string, opts: ExtractOptions): Promise<ExtractResult> {
  const probe = opts.probe ?? (await probeMedia(src));
  const video = probe.streams.find((s) => s.type === 'video');
  if (!video) {
    throw new SeekframeError('media-probe-failed', `${src} has no video stream to extract frames from; use it as <audio> instead.`, {
      stage: 'media',
      details: { file: src },
    });
  }
  const rate = typeof opts.fps === 'number' ? String(opts.fps) : `${opts.fps.num}/${opts.fps.den}`;
  const ext = opts.format;
  const pattern = `frame_%06d.${ext}`;
  const filters = [`fps=${rate}`];
  const window = opts.frames;
  if (window) filters.push(`trim=start_frame=${window.start}:end_frame=${window.end}`);
  if (opts.width !== undefined || opts.height !== undefined) {
    filters.push(`scale=${opts.width ?? -2}:${opts.height ?? -2}:flags=bicubic`);
  }
  if (opts.toneMap) filters.push(TONE_MAP_TO_SDR);
  await mkdir(outDir, { recursive: true });
  await removeFrames(outDir, ext);
  const args = [
    ...ffmpegPreamble(),
    // ffmpeg's native VP9 decoder drops the alpha plane; libvpx keeps it.
    ...(video.codec === 'vp9' && probe.hasAlpha ? ['-c:v', 'libvpx-vp9'] : []),
    ...(window ? ['-t', String(windowSeconds(window.end, opts.fps))] : []),
    ...mediaFileInput(src),
    '-map',
    '0:v:0',
    '-an',
    '-sn',
    '-vf',
    filters.join(','),
    ...(ext === 'png' ? ['-pix_fmt', pngPixelFormat(probe.hasAlpha, opts.toneMap === true)] : ['-q:v', '2', '-pix_fmt', 'yuvj444p']),
    '-start_number',
    String((window?.start ?? 0) + 1),
    path.join(outDir, pattern),
  ];
  const result = await runProcess(ffmpegPath(opts.ffmpeg), args, opts.signal ? { signal: opts.signal } : {}).catch((error: unknown) => {
    throw new SeekframeError(
      'video-extract-failed',
      `Could not run ffmpeg to extract frames from ${src}: ${error instanceof Error ? error.message : String(error)}`,
      {
        stage: 'media',
        details: { file: src },
        cause: error,
      },
    );
  });
  if (result.code !== 0) {
    await removeFrames(outDir, ext);
    throw new SeekframeError('video-extract-failed', `Extracting frames from ${src} failed:\n${tailLines(result.stderr)}`, {
      stage: 'media',
      details: { file: src },
    });
  }
  const count = (await readdir(outDir)).filter((name) => FRAME_NAME.test(name) && name.endsWith(`.${ext}`)).length;
  return { count, pattern, path: path.join(outDir, pattern) };
}

const FRAME_NAME = /^frame_\d{6}\.(jpg|png)$/;

/** Seconds of source to decode for frames before `end`, plus a second for the fps filter's look-ahead. */
function windowSeconds(end: number, fps: ExtractOptions['fps']): number {
  const rate = typeof fps === 'number' ? fps : fps.num / fps.den;
  return Math.ceil(end / rate) + 1;
}

/** 16-bit PNG for tone-mapped HDR frames: the highlights' gradations survive until the page composites. */
function pngPixelFormat(alpha: boolean, sixteenBit: boolean): string {
  if (sixteenBit) return alpha ? 'rgba64be' : 'rgb48be';
  return alpha ? 'rgba' : 'rgb24';
}

/** Frames of an earlier, longer extraction would otherwise be counted and shown. */
async function removeFrames(dir: string, ext: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (FRAME_NAME.test(name) && name.endsWith(`.${ext}`)) await rm(path.join(dir, name), { force: true });
  }
}
