import { createHash } from 'node:crypto';
import { z } from 'zod';
import { lambdaError } from '../errors.js';
import type { RenderRequestBody } from '../progress/progress-records.js';

/** Variables travel inside the request; anything bigger belongs in a file the page fetches by URL. */
export const MAX_VARIABLES_BYTES = 256 * 1024;

/**
 * The body of POST /api/render, the same fields as the render API contract (issue 13):
 * variables, format, quality, fps; unknown fields are refused. (`html` is not accepted here:
 * a Lambda render renders an uploaded project.)
 */
export const RenderBodySchema = z
  .object({
    variables: z.record(z.string(), z.unknown()).optional(),
    format: z.enum(['mp4', 'webm', 'mov', 'gif']).optional(),
    quality: z.enum(['draft', 'standard', 'high']).optional(),
    fps: z.number().int().min(1).max(240).optional(),
  })
  .strict();

/** Validates a parsed body; throws invalid-body (every problem listed) or variables-too-large. */
export function parseRenderBody(input: unknown): RenderRequestBody {
  const parsed = RenderBodySchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw lambdaError('invalid-body', `The render request is not valid: ${problems.join('; ')}. Send {variables?, format?, quality?, fps?}.`, { details: { problems } });
  }
  const body = parsed.data as RenderRequestBody;
  const size = Buffer.byteLength(JSON.stringify(body.variables ?? {}));
  if (size > MAX_VARIABLES_BYTES) {
    throw lambdaError(
      'variables-too-large',
      `The variables are ${Math.ceil(size / 1024)} KiB; a Lambda render accepts at most 256 KiB. Put large data (images, long lists, media) in files and pass their URLs as variables.`,
      { details: { bytes: size, limit: MAX_VARIABLES_BYTES } },
    );
  }
  return body;
}

export function parseJsonBody(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw lambdaError('invalid-json', `The request body is not JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

/** A stable hash of a request (key order does not matter), for idempotent starts. */
export function bodyHash(body: RenderRequestBody): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
