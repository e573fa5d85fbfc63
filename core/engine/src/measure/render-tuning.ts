import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';

/**
 * Settings that change speed but not what a frame shows (beyond JPEG loss): the knobs
 * `seekframe benchmark` tries and saves. Every field is optional; a missing one keeps the default.
 */
export const renderTuningSchema = z.object({
  /** Browser processes for `--workers auto`. */
  workers: z.number().int().min(1).max(24).optional(),
  /**
   * How frames travel from Chromium to ffmpeg for opaque output: JPEG (default) or lossless PNG
   * (fast compression: level with JPEG on flat motion graphics, a third slower on blur and
   * gradients). Alpha formats always use PNG.
   */
  frameFormat: z.enum(['jpeg', 'png']).optional(),
  /** JPEG quality of captured frames (opaque output only), 1-100; default 90. */
  jpegQuality: z.number().int().min(1).max(100).optional(),
  /** Pin each capture worker's browser to its own CPU when there are 2+ workers (default true). */
  pinWorkers: z.boolean().optional(),
  /** ffmpeg `-threads` for the encoder; 0 or absent = ffmpeg's own choice. */
  encoderThreads: z.number().int().min(0).max(64).optional(),
  /** beginframe: reuse frames Chromium reports undamaged (default true); tests turn it off to compare. Never saved. */
  skipUnchangedFrames: z.boolean().optional(),
  /** Render only the first N frames (the benchmark's sample); never saved. */
  maxFrames: z.number().int().min(1).optional(),
});

export type RenderTuning = z.infer<typeof renderTuningSchema>;

export const DEFAULT_JPEG_QUALITY = 90;

const scoped = new AsyncLocalStorage<RenderTuning>();

/**
 * Runs `fn` (typically one renderComposition call) with `tuning` in effect for every render it
 * starts. The benchmark uses this to try settings through the same code path as `seekframe render`
 * without growing the public render options.
 */
export function withRenderTuning<T>(tuning: RenderTuning, fn: () => Promise<T>): Promise<T> {
  return scoped.run(renderTuningSchema.parse(tuning), fn);
}

/** The tuning given by an enclosing withRenderTuning, if any. */
export function scopedRenderTuning(): RenderTuning | undefined {
  return scoped.getStore();
}
