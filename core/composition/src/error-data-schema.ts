import { z } from 'zod';
import { ERROR_CODES, ERROR_STAGES, type SeekframeErrorData } from './errors.js';

/**
 * `SeekframeErrorData` as a zod schema: what an HTTP face answers in its error body, for the
 * OpenAPI documents the render APIs serve. In its own file so that errors.ts stays free of zod
 * (the runtime and the player import it into the browser).
 */
export const SeekframeErrorDataSchema = z.object({
  code: z.enum(ERROR_CODES).describe('Stable, machine-readable code; see the error reference for when it happens and what to do.'),
  message: z.string().describe('A sentence for a person that names the file, field or URL and the fix.'),
  stage: z.enum(ERROR_STAGES).optional().describe('Where in the pipeline it happened.'),
  retryable: z.boolean().describe('Whether trying the same request again can help.'),
  details: z.record(z.string(), z.unknown()).optional().describe('Extra facts for machines (field, limit, problems, ...).'),
}) satisfies z.ZodType<SeekframeErrorData>;

/** The one error body of every HTTP face: `{"error": {code, message, stage?, retryable, details?}}`. */
export const ErrorBodySchema = z.object({ error: SeekframeErrorDataSchema });
