import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SeekframeError } from '@seekframe/composition';
import { ffmpegHasDecoder } from '@seekframe/engine';
import { PNG } from 'pngjs';

const run = promisify(execFile);

/** Frames compared, spread over the range: enough to see a lost channel, cheap to decode. */
const SAMPLES = 5;
/** A pixel counts as see-through below this alpha (VP9 alpha is lossy: 0 may come back as 2). */
const SEE_THROUGH = 250;
/** A frame with fewer see-through pixels than this share is treated as opaque. */
const MIN_SHARE = 0.001;

export type AlphaFormat = 'mov' | 'webm' | 'png-sequence';

export interface AlphaSample {
  /** 0-based index in the encoded range. */
  index: number;
  /** Share (0-1) of see-through pixels in the captured page and in the decoded output. */
  source: number;
  output: number;
}

export interface AlphaVerdict {
  samples: AlphaSample[];
  /** The page had see-through pixels and the file kept (about) as many. */
  kept: boolean;
  /** The page had see-through pixels that the file does not have. */
  lost: boolean;
  /** Every sampled page frame was opaque: nothing to keep (an opaque background). */
  opaqueSource: boolean;
  /** Why there is no verdict (e.g. no decoder that reads VP9 alpha); absent when checked. */
  skipped?: string;
}

/**
 * The decode-level alpha check of a transparent render (mov, webm, png-sequence): keeps a few
 * captured frames as they go by (a Set lookup per frame on the hot path), then decodes the same
 * frames of the encoded output with ffmpeg and compares the alpha planes, not the container's
 * pixel format, which can say yuva420p for a stream whose alpha was never written. VP9 alpha is
 * read with the libvpx-vp9 decoder; ffmpeg's native vp9 decoder drops it.
 */
export class AlphaWatch {
  readonly #wanted: Set<number>;
  readonly #kept = new Map<number, Buffer>();

  constructor(frames: number) {
    this.#wanted = new Set(sampleIndices(frames));
  }

  observe(index: number, frame: Buffer): void {
    if (this.#wanted.has(index)) this.#kept.set(index, Buffer.from(frame));
  }

  /** Compares the kept frames with the encoded output at `encoded` (a file, or a png-sequence folder). */
  async verify(encoded: EncodedOutput): Promise<AlphaVerdict> {
    const samples: AlphaSample[] = [];
    if (encoded.format === 'webm' && !(await ffmpegHasDecoder('libvpx-vp9', encoded.ffmpeg))) {
      return { samples, kept: false, lost: false, opaqueSource: false, skipped: `${encoded.ffmpeg} has no libvpx-vp9 decoder, the only one that reads VP9 alpha` };
    }
    for (const [index, frame] of [...this.#kept].sort((a, b) => a[0] - b[0])) {
      const source = seeThroughShare(PNG.sync.read(frame).data, 4, 3);
      const output = seeThroughShare(await decodeAlpha(encoded, index), 1, 0);
      samples.push({ index, source, output });
    }
    const transparent = samples.filter((s) => s.source >= MIN_SHARE);
    const lost = transparent.some((s) => s.output < s.source / 2);
    return { samples, kept: transparent.length > 0 && !lost, lost, opaqueSource: samples.length > 0 && transparent.length === 0 };
  }
}

export interface EncodedOutput {
  format: AlphaFormat;
  /** The encoded file, or the png-sequence folder. */
  path: string;
  width: number;
  height: number;
  fps: { num: number; den: number };
  /** png-sequence: the number in the first frame's file name. */
  startNumber?: number;
  ffmpeg: string;
}

/** The render's error for a verdict that lost alpha; the name says what the user sees. */
export function alphaLostError(verdict: AlphaVerdict, encoded: Pick<EncodedOutput, 'format' | 'fps'>, shownAs: string): SeekframeError {
  const worst = verdict.samples.filter((s) => s.source >= MIN_SHARE).sort((a, b) => b.source - b.output - (a.source - a.output))[0]!;
  const seconds = (worst.index * encoded.fps.den) / encoded.fps.num;
  const percent = (share: number): string => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 2 : 0)}%`;
  return new SeekframeError(
    'alpha-lost',
    `${shownAs} lost its alpha channel: frame ${worst.index} (${seconds.toFixed(2)} s) is ${percent(worst.source)} transparent in the page but ${percent(worst.output)} in the decoded ${encoded.format}. ` +
      `The encoder wrote no usable alpha; check that this ffmpeg's ${encoded.format === 'webm' ? 'libvpx-vp9 encodes yuva420p' : encoded.format === 'mov' ? 'prores_ks encodes yuva444p10le' : 'png encoder writes rgba'} (\`seekframe doctor\`), or render png-sequence. The output was not written.`,
    { stage: 'encode', details: { format: encoded.format, frame: worst.index, time: seconds, sourceTransparent: worst.source, outputTransparent: worst.output, samples: verdict.samples } },
  );
}

/** Up to SAMPLES indices spread evenly over [0, frames), first and last included. */
export function sampleIndices(frames: number): number[] {
  if (frames <= 0) return [];
  const count = Math.min(SAMPLES, frames);
  if (count === 1) return [0];
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * (frames - 1)) / (count - 1))))];
}

/** Share of pixels whose alpha (byte `offset` of every `stride`) is below SEE_THROUGH. */
function seeThroughShare(pixels: Uint8Array, stride: number, offset: number): number {
  const count = Math.floor(pixels.length / stride);
  if (count === 0) return 0;
  let seeThrough = 0;
  for (let i = offset; i < pixels.length; i += stride) if (pixels[i]! < SEE_THROUGH) seeThrough++;
  return seeThrough / count;
}

/** The alpha plane of frame `index` of the output, one byte per pixel (255 everywhere when it has none). */
async function decodeAlpha(encoded: EncodedOutput, index: number): Promise<Uint8Array> {
  if (encoded.format === 'png-sequence') {
    const file = path.join(encoded.path, `frame_${String((encoded.startNumber ?? 1) + index).padStart(6, '0')}.png`);
    const rgba = PNG.sync.read(await readFile(file)).data;
    const alpha = new Uint8Array(rgba.length / 4);
    for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3]!;
    return alpha;
  }
  // Input seeking decodes from the previous keyframe and drops frames that start before the time:
  // a quarter frame early lands on frame `index` whatever the rounding of its timestamp.
  const seconds = (Math.max(0, index - 0.25) * encoded.fps.den) / encoded.fps.num;
  const args = [
    '-v', 'error', '-nostdin',
    '-ss', seconds.toFixed(6),
    ...(encoded.format === 'webm' ? ['-c:v', 'libvpx-vp9'] : []),
    '-i', encoded.path,
    '-frames:v', '1', '-an',
    '-vf', 'format=rgba,alphaextract',
    '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1',
  ];
  const size = encoded.width * encoded.height;
  try {
    const { stdout } = await run(encoded.ffmpeg, args, { encoding: 'buffer', maxBuffer: size * 2 + 1024, timeout: 60_000 });
    if (stdout.length < size) throw new Error(`ffmpeg gave ${stdout.length} bytes for a ${encoded.width}x${encoded.height} frame`);
    return new Uint8Array(stdout.buffer, stdout.byteOffset, size);
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8').trim();
    throw new SeekframeError('ffmpeg-exited', `ffmpeg could not decode frame ${index} of the encoded ${encoded.format} to check its alpha: ${stderr || (error instanceof Error ? error.message : String(error))}`, {
      stage: 'encode',
      details: { frame: index },
    });
  }
}
