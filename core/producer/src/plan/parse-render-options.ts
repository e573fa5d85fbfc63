import { RenderOptionsSchema, type RenderOptions, type RenderOptionsInput } from './render-options.js';
import { invalidOptionsError } from './invalid-options-error.js';

export { invalidOptionsError } from './invalid-options-error.js';

/**
 * Validates render options (the spec plus renderComposition's `signal`) and turns zod issues
 * into one `invalid-options` SeekframeError. `fieldName` lets each caller speak its own language:
 * the CLI names flags (`--crf`), the HTTP server names body fields (`crf`).
 */
export function parseRenderOptions(
  input: RenderOptionsInput | RenderOptions | Record<string, unknown>,
  fieldName: (field: string) => string = (field) => field,
): RenderOptions {
  const result = RenderOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw invalidOptionsError(result.error, fieldName);
}
