import { spawn } from 'node:child_process';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';

/** Frames compared, spread over the range: enough to see a lost channel, cheap to decode. */
const SAMPLES = 3;
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

  /** `raw`: the frames are canvas capture's straight-alpha BGRA of this size, not PNG images. */
  constructor(
    frames: number,
    private readonly raw?: { width: number; height: number },
  ) {
    this.#wanted = new Set(sampleIndices(frames));
  }

  observe(index: number, frame: Buffer): void {
    if (this.#wanted.has(index)) this.#kept.set(index, Buffer.from(frame));
  }

  /** Compares the kept frames with the encoded output at `encoded` (a file, or a png-sequence folder). */
  async verify(encoded: EncodedOutput): Promise<AlphaVerdict> {
    const kept = [...this.#kept].sort((a, b) => a[0] - b[0]);
    if (kept.length === 0) return { samples: [], kept: false, lost: false, opaqueSource: false };
    const shares = await seeThroughShares(encoded, kept, this.raw);
    if (typeof shares === 'string') return { samples: [], kept: false, lost: false, opaqueSource: false, skipped: shares };
    const samples = kept.map(([index], i) => ({ index, source: shares.source[i]!, output: shares.output[i]! }));
    const transparent = samples.filter((s) => s.source >= MIN_SHARE);
    const lost = transparent.some((s) => s.output < s.source / 2);
    return { samples, kept: transparent.length > 0 && !lost, lost, opaqueSource: transparent.length === 0 };
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
    {
      stage: 'encode',
      details: {
        format: encoded.format,
        frame: worst.index,
        time: seconds,
        sourceTransparent: worst.source,
        outputTransparent: worst.output,
        samples: verdict.samples,
      },
    },
  );
}

/** Up to SAMPLES indices spread evenly over [0, frames), first and last included. */
export function sampleIndices(frames: number): number[] {
  if (frames <= 0) return [];
  const count = Math.min(SAMPLES, frames);
  if (count === 1) return [0];
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * (frames - 1)) / (count - 1))))];
}

/** Share of pixels whose alpha (one byte each) is below SEE_THROUGH. */
function seeThroughShare(alpha: Uint8Array): number {
  if (alpha.length === 0) return 0;
  let seeThrough = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i]! < SEE_THROUGH) seeThrough++;
  return seeThrough / alpha.length;
}

/** Width the alpha planes are compared at: a share of see-through pixels needs no more. */
const COMPARE_WIDTH = 480;

/**
 * The see-through shares of the captured frames and of the same frames of the output, from one
 * ffmpeg process: the captured PNGs (or raw BGRA frames) come in on stdin, each output frame is its own input (a video
 * seeked to it, from the keyframe before, so a long video is not decoded from its start; a
 * png-sequence file), every plane is scaled down alike and their alpha planes come out as one raw
 * stream. A string says why there is no answer (this ffmpeg cannot read VP9 alpha).
 */
async function seeThroughShares(
  encoded: EncodedOutput,
  kept: ReadonlyArray<[number, Buffer]>,
  raw: { width: number; height: number } | undefined,
): Promise<{ source: number[]; output: number[] } | string> {
  const width = Math.min(encoded.width, COMPARE_WIDTH);
  const height = Math.max(1, Math.round((encoded.height * width) / encoded.width));
  const shrink = `scale=${width}:${height}:flags=bilinear,format=rgba,alphaextract`;
  // libvpx-vp9 is the decoder that reads VP9 alpha (the native vp9 decoder drops it).
  const decoder = encoded.format === 'webm' ? ['-c:v', 'libvpx-vp9'] : [];
  const outputs = kept.flatMap(([index]) => {
    if (encoded.format === 'png-sequence')
      return ['-i', path.join(encoded.path, `frame_${String((encoded.startNumber ?? 1) + index).padStart(6, '0')}.png`)];
    // Seeking drops frames that start before the time: a quarter frame early lands on `index` whatever the rounding.
    const seconds = (Math.max(0, index - 0.25) * encoded.fps.den) / encoded.fps.num;
    return ['-ss', seconds.toFixed(6), ...decoder, '-i', encoded.path];
  });
  const chains = [`[0:v]${shrink}[s]`, ...kept.map((_, i) => `[${i + 1}:v]trim=end_frame=1,${shrink}[o${i}]`)];
  const graph = `${chains.join(';')};[s]${kept.map((_, i) => `[o${i}]`).join('')}concat=n=${kept.length + 1}:v=1:a=0,setpts=N[out]`;
  // -reinit_filter 0: Chromium writes a frame with no see-through pixel as an RGB PNG, so the piped
  // frames can change pixel format mid-stream (rgba, then rgb24). By default ffmpeg then rebuilds the
  // whole graph, and the one-frame output inputs, already read, reach the new concat as empty: fewer
  // planes come out than went in. Without the rebuild, `scale` (first in the chain) converts each frame.
  const args = [
    '-v',
    'error',
    '-reinit_filter',
    '0',
    ...(raw ? ['-f', 'rawvideo', '-pix_fmt', 'bgra', '-video_size', `${raw.width}x${raw.height}`] : ['-f', 'image2pipe', '-c:v', 'png']),
    '-i',
    'pipe:0',
    ...outputs,
    '-filter_complex',
    graph,
    '-map',
    '[out]',
    '-fps_mode',
    'passthrough',
    '-frames:v',
    String(kept.length * 2),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    'pipe:1',
  ];
  const { code, stdout, stderr } = await runWithInput(encoded.ffmpeg, args, Buffer.concat(kept.map(([, frame]) => frame)));
  const size = width * height;
  if (code !== 0 || stdout.length < size * kept.length * 2) {
    if (/Unknown decoder 'libvpx-vp9/i.test(stderr))
      return `${encoded.ffmpeg} has no libvpx-vp9 decoder, the only one that reads VP9 alpha`;
    const decoded = `exit code ${code}, ${Math.floor(stdout.length / size)} of the ${kept.length * 2} frames decoded`;
    throw new SeekframeError(
      'ffmpeg-exited',
      `ffmpeg could not decode the encoded ${encoded.format} to check its alpha: ${stderr.trim() || decoded}`,
      {
        stage: 'encode',
        details: { frames: kept.map(([index]) => index) },
      },
    );
  }
  const plane = (i: number): Uint8Array => new Uint8Array(stdout.buffer, stdout.byteOffset + i * size, size);
  return { source: kept.map((_, i) => seeThroughShare(plane(i))), output: kept.map((_, i) => seeThroughShare(plane(kept.length + i))) };
}

function runWithInput(command: string, args: string[], input: Buffer): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString('utf8')).slice(-8192)));
    // ffmpeg that failed early closes its input: the write error is reported by the exit code.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.end(input);
  });
}
