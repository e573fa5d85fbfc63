import { z } from 'zod';
import { validateOverrides, type CompositionMetadata } from '@seekframe/composition';
import { WebhookRequestSchema } from '@seekframe/producer/webhooks';
import { apiError } from './api-error.js';
import { RENDER_FORMATS, RENDER_QUALITIES, type RenderJobRequest } from './render-job.js';

/**
 * The body of `POST /api/render`, strict: unknown fields are refused so a typo is never silently
 * ignored. The option rules the CLI applies again (fps, formats) are kept to the few a template
 * exposes; the runner's `seekframe render` remains the final judge.
 */
export const RenderBodySchema = z.strictObject(
  {
    variables: z.unknown().optional().describe('Values of the composition\'s declared variables, by id: a JSON object like {"title":"Hi"}. Checked strictly against the declarations (GET /api/composition).'),
    format: z
      .enum(RENDER_FORMATS, {
        // A folder format cannot be the one file this API answers with; say so rather than only "not one of".
        error: (issue) =>
          issue.input === 'hls' || issue.input === 'png-sequence'
            ? `${String(issue.input)} writes a folder of files (${issue.input === 'hls' ? 'a playlist and its segments' : 'one PNG a frame'}), and this API answers with one file; use one of ${RENDER_FORMATS.join(', ')}, or \`seekframe render --format ${String(issue.input)}\``
            : `must be one of ${RENDER_FORMATS.join(', ')}`,
      })
      .optional()
      .describe('The file to make; default mp4.'),
    quality: z.enum(RENDER_QUALITIES, { error: `must be one of ${RENDER_QUALITIES.join(', ')}` }).optional().describe('Encoder quality preset; default standard.'),
    fps: z.number({ error: 'must be a whole number 1-240' }).int('must be a whole number 1-240').min(1, 'must be 1-240').max(240, 'must be 1-240').optional().describe("Frames per second; default the composition's own (data-fps, else 30)."),
    html: z.string().min(1, 'must be a whole HTML composition document').optional().describe('A whole composition document to render instead of the deployment\'s own; only where the deployment allows custom HTML (else 403 custom-html-disabled).'),
    webhook: WebhookRequestSchema.optional().describe("Where to post the render's signed events (render.started/progress/completed/failed)."),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}; allowed: variables, format, quality, fps, html, webhook` : undefined) },
);

export type RenderBody = z.output<typeof RenderBodySchema>;

export function parseRenderBody(json: unknown): RenderBody {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw apiError('invalid-body', 'The request body must be a JSON object like {"variables":{"title":"Hi"},"format":"mp4"} (every field is optional).');
  }
  const result = RenderBodySchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
    throw apiError('invalid-body', `The request body is not a render request: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}.`, { details: { problems } });
  }
  return result.data;
}

export interface VariableProblem {
  id: string;
  kind: 'not-an-object' | 'undeclared' | 'type-mismatch' | 'enum-out-of-range';
  expected?: string;
  message: string;
}

/**
 * Checks `variables` against the composition's declarations strictly: every undeclared id,
 * wrong type, out-of-range enum or number and over-long string is a problem, and all of them
 * are answered together in one 400 `invalid-variables` (details.problems).
 */
export function checkRenderVariables(variables: unknown, metadata: CompositionMetadata): Record<string, unknown> {
  if (variables === undefined) return {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    const problems: VariableProblem[] = [{ id: '', kind: 'not-an-object', message: 'variables must be a JSON object of variable id -> value, like {"title":"Hi"}' }];
    throw apiError('invalid-variables', 'variables must be a JSON object of variable id -> value, like {"title":"Hi"}.', { stage: 'variables', details: { problems } });
  }
  const values = variables as Record<string, unknown>;
  const issues = validateOverrides(metadata.variables, values);
  // validateOverrides skips undefined; JSON has no undefined, but null is a value and is checked.
  if (issues.length > 0) {
    const problems: VariableProblem[] = issues.map((issue) => ({ id: issue.id, kind: issue.kind, ...(issue.expected ? { expected: issue.expected } : {}), message: issue.message }));
    throw apiError('invalid-variables', `${problems.length} variable problem(s) in composition "${metadata.id}": ${problems.map((p) => p.message).join('; ')}.`, {
      stage: 'variables',
      details: { problems },
    });
  }
  return values;
}

/** Frames of a render as the producer counts them: round(duration x fps), at least 1. */
export function renderFrames(duration: number, fps: number): number {
  return Math.max(duration > 0 ? 1 : 0, Math.round(duration * fps));
}

/** Refuses, with 400 `limit-exceeded`, a render over the frame or pixel limit before it queues. */
export function checkRenderDemand(metadata: CompositionMetadata, fps: number, limits: { maxFrames: number; maxPixels: number }): number {
  const frames = renderFrames(metadata.duration, fps);
  if (frames > limits.maxFrames) {
    throw apiError('limit-exceeded', `The render has ${frames} frames (${metadata.duration} s at ${fps} fps), more than this deployment's limit of ${limits.maxFrames}; lower fps, shorten data-duration, or raise RENDER_MAX_FRAMES.`, {
      details: { limit: 'maxFrames', value: frames, max: limits.maxFrames },
    });
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > limits.maxPixels) {
    throw apiError('limit-exceeded', `A frame is ${metadata.width}x${metadata.height} = ${pixels} pixels, more than this deployment's limit of ${limits.maxPixels}; make data-width/data-height smaller.`, {
      details: { limit: 'maxPixels', value: pixels, max: limits.maxPixels },
    });
  }
  return frames;
}

export function toJobRequest(body: RenderBody, variables: Record<string, unknown>): RenderJobRequest {
  return {
    variables,
    format: body.format ?? 'mp4',
    ...(body.quality ? { quality: body.quality } : {}),
    ...(body.fps !== undefined ? { fps: body.fps } : {}),
    ...(body.html !== undefined ? { html: body.html } : {}),
    ...(body.webhook !== undefined ? { webhook: body.webhook } : {}),
  };
}
