import { createHash } from 'node:crypto';
import { z } from 'zod';
import { WebhookRequestSchema } from '@seekframe/producer/webhooks';
import { lambdaError } from '../errors.js';
import type { RenderRequestBody } from '../progress/progress-records.js';

/** Variables travel inside the request; anything bigger belongs in a file the page fetches by URL. */
export const MAX_VARIABLES_BYTES = 256 * 1024;

/**
 * The body of POST /api/render: the fields and strictness of the render API contract that every
 * deploy template serves, so one client works against all of them (adapters/render-api's
 * RenderBodySchema; not imported, because that package depends on the CLI,
 * which loads this one). `html` is part of the contract but a Lambda deployment renders uploaded
 * projects only, so it is refused with 403 custom-html-disabled as a template without allowHtml does.
 */
export const RenderBodySchema = z.strictObject(
  {
    variables: z.record(z.string(), z.unknown(), { error: 'must be a JSON object of variable id -> value, like {"title":"Hi"}' }).optional(),
    format: z.enum(['mp4', 'webm', 'mov', 'gif'], { error: 'must be one of mp4, webm, mov, gif' }).optional(),
    quality: z.enum(['draft', 'standard', 'high'], { error: 'must be one of draft, standard, high' }).optional(),
    fps: z.number({ error: 'must be a whole number 1-240' }).int('must be a whole number 1-240').min(1, 'must be 1-240').max(240, 'must be 1-240').optional(),
    html: z.string().optional(),
    webhook: WebhookRequestSchema.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}; allowed: variables, format, quality, fps, webhook` : undefined) },
);

/** Validates a parsed body; throws invalid-body (every problem in details.problems), custom-html-disabled or variables-too-large. */
export function parseRenderBody(input: unknown): RenderRequestBody {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw lambdaError('invalid-body', 'The request body must be a JSON object like {"variables":{"title":"Hi"},"quality":"high"} (every field is optional).');
  }
  const parsed = RenderBodySchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
    throw lambdaError('invalid-body', `The request body is not a render request: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}.`, { details: { problems } });
  }
  const { html, ...body } = parsed.data;
  if (html !== undefined) {
    throw lambdaError('custom-html-disabled', 'A Lambda deployment renders uploaded projects, not HTML sent in the request: render a project folder with `seekframe lambda render <dir>`.');
  }
  const size = Buffer.byteLength(JSON.stringify(body.variables ?? {}));
  if (size > MAX_VARIABLES_BYTES) {
    throw lambdaError(
      'variables-too-large',
      `The variables are ${Math.ceil(size / 1024)} KiB; a Lambda render accepts at most 256 KiB. Put large data (images, long lists, media) in files and pass their URLs as variables.`,
      { details: { bytes: size, limit: MAX_VARIABLES_BYTES } },
    );
  }
  return body as RenderRequestBody;
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
