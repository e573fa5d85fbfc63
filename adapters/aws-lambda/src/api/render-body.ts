import { createHash } from 'node:crypto';
import { bodyProblems, RenderBodySchema } from '@seekframe/producer/http';
import { lambdaError } from '../errors.js';
import type { RenderRequestBody } from '../progress/progress-records.js';

/** Variables travel inside the request; anything bigger belongs in a file the page fetches by URL. */
export const MAX_VARIABLES_BYTES = 256 * 1024;

/**
 * Validates a parsed body against the render API contract's RenderBodySchema (the one every
 * template accepts), then what a Lambda deployment adds: `html` is refused with 403
 * custom-html-disabled (a Lambda deployment renders uploaded projects only, as a template without
 * ALLOW_CUSTOM_HTML does), `variables` must be an object (400 invalid-variables, as the templates
 * answer) of at most 256 KiB (413 variables-too-large).
 */
export function parseRenderBody(input: unknown): RenderRequestBody {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw lambdaError('invalid-body', 'The request body must be a JSON object like {"variables":{"title":"Hi"},"quality":"high"} (every field is optional).');
  }
  const parsed = RenderBodySchema.safeParse(input);
  if (!parsed.success) {
    const problems = bodyProblems(parsed.error);
    throw lambdaError('invalid-body', `The request body is not a render request: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}.`, { details: { problems } });
  }
  const { html, variables, ...rest } = parsed.data;
  if (html !== undefined) {
    throw lambdaError('custom-html-disabled', 'A Lambda deployment renders uploaded projects, not HTML sent in the request: render a project folder with `seekframe lambda render <dir>`.');
  }
  if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) {
    const message = 'variables must be a JSON object of variable id -> value, like {"title":"Hi"}';
    throw lambdaError('invalid-variables', `${message}.`, { stage: 'variables', details: { problems: [{ id: '', kind: 'not-an-object', message }] } });
  }
  const size = Buffer.byteLength(JSON.stringify(variables ?? {}));
  if (size > MAX_VARIABLES_BYTES) {
    throw lambdaError(
      'variables-too-large',
      `The variables are ${Math.ceil(size / 1024)} KiB; a Lambda render accepts at most 256 KiB. Put large data (images, long lists, media) in files and pass their URLs as variables.`,
      { details: { bytes: size, limit: MAX_VARIABLES_BYTES } },
    );
  }
  return { ...rest, ...(variables !== undefined ? { variables: variables as Record<string, unknown> } : {}) };
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
