import { isErrorCode, SeekframeError } from '@seekframe/composition';
import type { CapturePage } from '@seekframe/engine';
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

  /** `bgra`/`i420`: frames are raw pixels (canvas capture), else PNG or JPEG images. */
  constructor(private readonly frameKind: 'image' | 'bgra' | 'i420' = 'image') {}

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
  flatColour(): string | undefined {
    if (this.varied || !this.first || this.frames === 0) return undefined;
    if (this.frameKind === 'bgra') return flatColourOfPixels(bgraToRgba(this.first));
    if (this.frameKind === 'i420') return flatColourOfI420(this.first);
    return flatColourOf(this.first);
  }
}

/**
 * The colour of one captured frame as `#rrggbb` when every pixel is within 2 levels of the
 * first (`transparent` when that is fully transparent), else undefined. Frames come from
 * Chromium as PNG or baseline JPEG, decoded here in process (jpeg-js, pngjs): starting ffmpeg for
 * it cost a flat render ~0.1 s. An image neither decoder reads gives undefined: the check is a
 * warning about a likely mistake, and never fails a render on its own account.
 */
export function flatColourOf(image: Buffer): string | undefined {
  const rgba = decodeFrame(image);
  return rgba ? flatColourOfPixels(rgba) : undefined;
}

/** flatColourOf for pixels already decoded to RGBA. */
export function flatColourOfPixels(rgba: Uint8Array): string | undefined {
  if (rgba.length < 4) return undefined;
  const [r, g, b, a] = [rgba[0]!, rgba[1]!, rgba[2]!, rgba[3]!];
  for (let i = 4; i < rgba.length; i += 4) {
    if (Math.abs(rgba[i]! - r) > 2 || Math.abs(rgba[i + 1]! - g) > 2 || Math.abs(rgba[i + 2]! - b) > 2 || Math.abs(rgba[i + 3]! - a) > 2)
      return undefined;
  }
  if (a === 0) return 'transparent';
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour of an I420 frame (BT.709 limited range, as canvas capture converts it) when every
 * sample of each plane is within 2 levels of its first, else undefined.
 */
function flatColourOfI420(frame: Buffer): string | undefined {
  const luma = (frame.length / 3) * 2;
  const planes = [frame.subarray(0, luma), frame.subarray(luma, luma + luma / 4), frame.subarray(luma + luma / 4)];
  for (const plane of planes) for (let i = 1; i < plane.length; i++) if (Math.abs(plane[i]! - plane[0]!) > 2) return undefined;
  const y = (planes[0]![0]! - 16) * (255 / 219);
  const u = (planes[1]![0]! - 128) * (255 / 224);
  const v = (planes[2]![0]! - 128) * (255 / 224);
  const channel = (value: number): string =>
    Math.max(0, Math.min(255, Math.round(value)))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(y + 1.5748 * v)}${channel(y - 0.1873 * u - 0.4681 * v)}${channel(y + 1.8556 * u)}`;
}

/** Raw BGRA pixels as RGBA (a copy). */
function bgraToRgba(bgra: Buffer): Uint8Array {
  const rgba = new Uint8Array(bgra.length);
  for (let i = 0; i + 3 < bgra.length; i += 4) {
    rgba[i] = bgra[i + 2]!;
    rgba[i + 1] = bgra[i + 1]!;
    rgba[i + 2] = bgra[i]!;
    rgba[i + 3] = bgra[i + 3]!;
  }
  return rgba;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** RGBA pixels of a PNG or JPEG frame, or undefined for anything else (or a damaged image). */
export function decodeFrame(image: Buffer): Uint8Array | undefined {
  try {
    if (image.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG.sync.read(image).data;
    if (image[0] === 0xff && image[1] === 0xd8)
      return jpeg.decode(image, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 }).data;
  } catch {
    // damaged: no verdict
  }
  return undefined;
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
    throw new SeekframeError(
      isErrorCode(problem.code) ? problem.code : 'render-failed',
      `${problem.message} (an error because of --strict; without it this is a warning)`,
      {
        stage: problem.stage,
        ...(problem.details ? { details: problem.details } : {}),
      },
    );
  }
  emit({ type: 'warning', code: problem.code, message: problem.message, ...(problem.details ? { details: problem.details } : {}) });
}

export function blankRenderProblem(
  colour: string,
  entry: string,
): { code: string; message: string; details: Record<string, unknown>; stage: 'capture' } {
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
export async function reportPageWarnings(
  page: Pick<CapturePage, 'evaluate'>,
  strict: boolean,
  emit: (warning: RenderWarning) => void,
): Promise<void> {
  const warnings = await page.evaluate(() => {
    const runtime = (
      window as unknown as { __seekframe?: { warnings?: () => { code: string; message: string; details?: Record<string, string> }[] } }
    ).__seekframe;
    return typeof runtime?.warnings === 'function' ? runtime.warnings() : [];
  });
  for (const warning of warnings) reportSilentProblem({ ...warning, stage: 'media' }, strict, emit);
}
