import { SeekframeError } from '@seekframe/composition';
import type { z } from 'zod';
import { RenderOptionsSchema, type RenderOptions, type RenderOptionsInput } from './render-options.js';

/**
 * Validates render options and turns zod issues into one `invalid-options` SeekframeError.
 * `fieldName` lets each caller speak its own language: the CLI names flags (`--crf`), the HTTP
 * server names body fields (`crf`).
 */
export function parseRenderOptions(
  input: RenderOptionsInput | RenderOptions | Record<string, unknown>,
  fieldName: (field: string) => string = (field) => field,
): RenderOptions {
  const result = RenderOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw invalidOptionsError(result.error, fieldName);
}

export function invalidOptionsError(error: z.ZodError, fieldName: (field: string) => string = (field) => field): SeekframeError {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? fieldName(issue.path.map(String).join('.')) : 'options';
    return { field, message: `${field} ${issue.message}` };
  });
  return new SeekframeError('invalid-options', problems.map((p) => p.message).join('; '), {
    stage: 'config',
    details: { problems },
  });
}
