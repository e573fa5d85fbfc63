import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { mediaFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { hdrLayerGraph } from './hdr-layers.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export interface HdrLayers {
  count: number;
  /** `frame_%06d.png`, 1-based like extractVideoFrames. */
  pattern: string;
  /** S: the clip clipped at reference white. */
  sdrDir: string;
  /** S - h: what pass B shows (hdr-layers.ts). */
  lowDir: string;
}

/** Decodes an HDR clip once into both layers of the two-pass HDR render, 16-bit PNG each. */
export async function extractHdrLayers(
  src: string,
  outDir: string,
  opts: { fps: { num: number; den: number }; peak: number; ffmpeg?: string; signal?: AbortSignal },
): Promise<HdrLayers> {
  const sdrDir = path.join(outDir, 'sdr');
  const lowDir = path.join(outDir, 'low');
  await mkdir(sdrDir, { recursive: true });
  await mkdir(lowDir, { recursive: true });
  const pattern = 'frame_%06d.png';
  const args = [
    ...ffmpegPreamble(),
    ...mediaFileInput(src),
    '-filter_complex',
    hdrLayerGraph(`${opts.fps.num}/${opts.fps.den}`, opts.peak),
    '-map',
    '[sdr]',
    '-pix_fmt',
    'rgb48be',
    '-start_number',
    '1',
    path.join(sdrDir, pattern),
    '-map',
    '[low]',
    '-pix_fmt',
    'rgb48be',
    '-start_number',
    '1',
    path.join(lowDir, pattern),
  ];
  const fail = (why: string): SeekframeError =>
    new SeekframeError('video-extract-failed', `Extracting the HDR layers of ${src} failed: ${why}`, {
      stage: 'media',
      details: { file: src },
    });
  const result = await runProcess(ffmpegPath(opts.ffmpeg), args, opts.signal ? { signal: opts.signal } : {}).catch((error: unknown) => {
    throw fail(error instanceof Error ? error.message : String(error));
  });
  if (result.code !== 0) throw fail(tailLines(result.stderr));
  const count = (await readdir(sdrDir)).filter((name) => /^frame_\d{6}\.png$/.test(name)).length;
  return { count, pattern, sdrDir, lowDir };
}
