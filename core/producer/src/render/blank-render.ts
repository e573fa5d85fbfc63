import { spawn } from 'node:child_process';
import { isErrorCode, SeekframeError } from '@seekframe/composition';
import { findFfmpeg, type CapturePage } from '@seekframe/engine';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/**
 * Notices a render that paints nothing but one flat colour in every frame (its background), at
 * almost no cost on the hot path: each captured frame is only compared with the first (a length
 * check, then memcmp) until one differs, which ends the watch. Only when every frame was the same
 * image is that one image decoded (once, in this process) to see whether it is a single colour.
 */
export class BlankFrameWatch {
  private first: Buffer | undefined;
  private varied = false;
  private frames = 0;

  observe(frame: Buffer): void {
    this.frames++;
    if (this.varied) return;
    if (!this.first) this.first = Buffer.from(frame);
    else if (frame.length !== this.first.length || !frame.equals(this.first)) {
      this.varied = true;
      this.first = undefined;
    }
  }

  /** The frames' one colour as `#rrggbb` (`transparent` for a fully transparent frame), or undefined when something was painted. */
  async flatColour(ffmpeg?: string): Promise<string | undefined> {
    if (this.varied || !this.first || this.frames === 0) return undefined;
    return flatColourOf(this.first, ffmpeg);
  }
}

/**
 * The colour of one encoded frame (JPEG/PNG) as `#rrggbb` when every pixel is within 2 levels of
 * the first (`transparent` when that is fully transparent), else undefined. Decoded in this
 * process (jpeg-js, pngjs): starting ffmpeg for it cost a flat render ~0.1 s of fixed cost on
 * 2 cores. ffmpeg remains the fallback for anything those decoders refuse.
 */
export async function flatColourOf(image: Buffer, ffmpegBinary?: string): Promise<string | undefined> {
  const rgba = decodeInProcess(image) ?? (await decodeWithFfmpeg(image, ffmpegBinary));
  if (rgba.length < 4) return undefined;
  const [r, g, b, a] = [rgba[0]!, rgba[1]!, rgba[2]!, rgba[3]!];
  for (let i = 4; i < rgba.length; i += 4) {
    if (Math.abs(rgba[i]! - r) > 2 || Math.abs(rgba[i + 1]! - g) > 2 || Math.abs(rgba[i + 2]! - b) > 2 || Math.abs(rgba[i + 3]! - a) > 2) return undefined;
  }
  if (a === 0) return 'transparent';
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** RGBA pixels of a PNG or baseline JPEG (what the capture produces), or undefined to let ffmpeg try. */
export function decodeInProcess(image: Buffer): Uint8Array | undefined {
  try {
    if (image.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG.sync.read(image).data;
    if (image[0] === 0xff && image[1] === 0xd8) return jpeg.decode(image, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 }).data;
  } catch {
    // A variant these decoders do not read: ffmpeg decodes it below.
  }
  return undefined;
}

async function decodeWithFfmpeg(image: Buffer, ffmpegBinary?: string): Promise<Buffer> {
  const ffmpeg = ffmpegBinary ?? (await findFfmpeg()).ffmpeg;
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(ffmpeg, ['-v', 'error', '-protocol_whitelist', 'pipe', '-i', 'pipe:0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg could not decode a captured frame: ${err.trim()}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(image);
  });
}

export interface RenderWarning {
  type: 'warning';
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * A problem that would silently make the video show less than the author meant: a warning event,
 * or under `strict` a SeekframeError with the same code (thrown before any output is published).
 */
export function reportSilentProblem(
  problem: { code: string; message: string; details?: Record<string, unknown>; stage: 'media' | 'capture' },
  strict: boolean,
  emit: (warning: RenderWarning) => void,
): void {
  if (strict) {
    // The page's warning codes are data from the page: only a code of ours becomes an error code.
    throw new SeekframeError(isErrorCode(problem.code) ? problem.code : 'render-failed', `${problem.message} (an error because of --strict; without it this is a warning)`, {
      stage: problem.stage,
      ...(problem.details ? { details: problem.details } : {}),
    });
  }
  emit({ type: 'warning', code: problem.code, message: problem.message, ...(problem.details ? { details: problem.details } : {}) });
}

export function blankRenderProblem(colour: string, entry: string): { code: string; message: string; details: Record<string, unknown>; stage: 'capture' } {
  return {
    code: 'blank-render',
    message: `${entry} painted nothing but its background (${colour}) in every frame, so the video is blank; check the warnings above (an empty sub-composition, clips that never start) or that its scripts ran`,
    details: { file: entry, colour },
    stage: 'capture',
  };
}

/**
 * The runtime's own warnings (`__seekframe.warnings()`: a sub-composition with nothing to show,
 * an iframe it cannot drive), read once from the first page after it is ready.
 */
export async function reportPageWarnings(page: Pick<CapturePage, 'evaluate'>, strict: boolean, emit: (warning: RenderWarning) => void): Promise<void> {
  const warnings = await page.evaluate(() => {
    const runtime = (window as unknown as { __seekframe?: { warnings?: () => { code: string; message: string; details?: Record<string, string> }[] } }).__seekframe;
    return typeof runtime?.warnings === 'function' ? runtime.warnings() : [];
  });
  for (const warning of warnings) reportSilentProblem({ ...warning, stage: 'media' }, strict, emit);
}
