import path from 'node:path';
import { z } from 'zod';
import { FORMAT_EXTENSIONS, RENDER_SPEC_SHAPE, withSpecRules, type OutputFormat } from './render-spec.js';

export { OUTPUT_FORMATS, FORMAT_EXTENSIONS, FpsSchema, formatFromOutput, type Fps, type OutputFormat } from './render-spec.js';

/**
 * renderComposition's options: the render spec (render-spec.ts, the one schema the CLI, the
 * HTTP server, batch rows and the benchmark parse through) plus the abort signal, which is not
 * data and belongs to the render context; kept here so existing callers need not split it.
 */
export const RenderOptionsSchema = withSpecRules(
  z.object({
    ...RENDER_SPEC_SHAPE,
    signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'must be an AbortSignal').optional(),
  }),
);

export type RenderOptionsInput = z.input<typeof RenderOptionsSchema>;
export type RenderOptions = z.output<typeof RenderOptionsSchema>;

/** `renders/<name>.<ext>` (a folder `renders/<name>/` for png-sequence), name = the project folder's. */
export function defaultOutputPath(projectDir: string, format: OutputFormat, cwd = process.cwd()): string {
  const absolute = path.resolve(cwd, projectDir);
  const folder = absolute.toLowerCase().endsWith('.html') ? path.dirname(absolute) : absolute;
  const name = path.basename(folder) || 'render';
  return path.join(cwd, 'renders', `${name}${FORMAT_EXTENSIONS[format]}`);
}
