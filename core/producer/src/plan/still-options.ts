import path from 'node:path';
import { z } from 'zod';
import { parseStillAt, type StillAt } from '@seekframe/composition';
import { invalidOptionsError } from './invalid-options-error.js';
import { defaultOutputPath } from './render-options.js';
import { RENDER_SPEC_SHAPE } from './render-spec.js';

export type { StillAt };

/** Stills of one call: enough for a contact sheet, few enough that one call stays one short job. */
export const STILLS_MAX = 100;

/** `{time}` (seconds, or `"1.5s"`, `"1500ms"`, `"1.5"`) or `{frame}`. */
const StillAtSchema = z
  .custom<{ time: number | string } | { frame: number | string }>(() => true)
  .transform((value, ctx): StillAt => {
    const parsed = parseStillAt(value);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

/**
 * renderStills' options: where the stills are taken (`at`), the PNG to write, and the render
 * spec's fields that decide a frame's pixels (the same schema entries, so a still and a render
 * accept the same values). The capture is always a png-sequence's (PNG, transparent page).
 */
export const StillOptionsSchema = z
  .object({
    projectDir: RENDER_SPEC_SHAPE.projectDir,
    /** The PNG file (several stills: numbered beside it, see stillOutputs). Default renders/<project name>.png. */
    output: z.string().min(1).optional(),
    at: z
      .array(StillAtSchema)
      .min(1, 'must name at least one time or frame')
      .max(STILLS_MAX, `must name at most ${STILLS_MAX} stills at once`),
    fps: RENDER_SPEC_SHAPE.fps,
    scale: RENDER_SPEC_SHAPE.scale,
    variables: RENDER_SPEC_SHAPE.variables,
    strictVariables: RENDER_SPEC_SHAPE.strictVariables,
    strict: RENDER_SPEC_SHAPE.strict,
    captureMode: RENDER_SPEC_SHAPE.captureMode,
    browserGpu: RENDER_SPEC_SHAPE.browserGpu,
    readyTimeoutMs: RENDER_SPEC_SHAPE.readyTimeoutMs,
    seekTimeoutMs: RENDER_SPEC_SHAPE.seekTimeoutMs,
    remoteTimeoutMs: RENDER_SPEC_SHAPE.remoteTimeoutMs,
    network: RENDER_SPEC_SHAPE.network,
    limits: RENDER_SPEC_SHAPE.limits,
    signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'must be an AbortSignal').optional(),
  })
  .superRefine((options, ctx) => {
    if (options.output !== undefined && path.extname(options.output).toLowerCase() !== '.png') {
      ctx.addIssue({
        code: 'custom',
        path: ['output'],
        message: `must name a .png file (a still is a PNG, with the page's transparency), not ${path.basename(options.output)}`,
      });
    }
  });

export type StillOptionsInput = z.input<typeof StillOptionsSchema>;
export type StillOptions = z.output<typeof StillOptionsSchema>;

/** One `invalid-options` error listing every problem; `fieldName` speaks the caller's language (`--time`). */
export function parseStillOptions(input: unknown, fieldName?: (field: string) => string): StillOptions {
  const result = StillOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw invalidOptionsError(result.error, fieldName);
}

/**
 * Where each still goes. One asked for: `output` itself (default `renders/<project name>.png`).
 * Several: `<output without .png>-<frame>.png`, the composition frame number zero-padded to the
 * width of the last frame's (`hero-045.png` for frame 45 of 150), so the files sort in time order;
 * two times on the same frame share its file.
 */
export function stillOutputs(
  projectDir: string,
  output: string | undefined,
  frames: readonly number[],
  lastFrame: number,
  several: boolean,
): string[] {
  const file = path.resolve(output ?? `${defaultOutputPath(projectDir, 'png-sequence')}.png`);
  if (!several) return frames.map(() => file);
  const base = file.slice(0, -path.extname(file).length);
  const width = String(lastFrame).length;
  return frames.map((frame) => `${base}-${String(frame).padStart(width, '0')}.png`);
}
