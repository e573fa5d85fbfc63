import {
  fpsFromNumber,
  frameSpanProblem,
  spanFrames,
  stillFrame,
  validateOverrides,
  type CompositionMetadata,
  type FrameSpan,
  type StillAt,
  type SeekframeError,
} from '@seekframe/composition';
import { bodyProblems, RenderBodySchema, type RenderBody } from '@seekframe/producer/http';
import { apiError } from './api-error.js';
import type { RenderJobRequest } from './render-job.js';

export { RenderBodySchema, type RenderBody };

export function parseRenderBody(json: unknown): RenderBody {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw apiError(
      'invalid-body',
      'The request body must be a JSON object like {"variables":{"title":"Hi"},"format":"mp4"} (every field is optional).',
    );
  }
  const result = RenderBodySchema.safeParse(json);
  if (!result.success) {
    const problems = bodyProblems(result.error);
    throw apiError(
      'invalid-body',
      `The request body is not a render request: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}.`,
      { details: { problems } },
    );
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
 * are answered together in one 400 `invalid-variables` (details.problems). Without metadata only
 * that they are an object.
 */
export function checkRenderVariables(variables: unknown, metadata: CompositionMetadata | null): Record<string, unknown> {
  if (variables === undefined) return {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    const problems: VariableProblem[] = [
      { id: '', kind: 'not-an-object', message: 'variables must be a JSON object of variable id -> value, like {"title":"Hi"}' },
    ];
    throw apiError('invalid-variables', 'variables must be a JSON object of variable id -> value, like {"title":"Hi"}.', {
      stage: 'variables',
      details: { problems },
    });
  }
  const values = variables as Record<string, unknown>;
  // Not known here (an uploaded project): the plan step checks them as strictly.
  if (!metadata) return values;
  const issues = validateOverrides(metadata.variables, values);
  // validateOverrides skips undefined; JSON has no undefined, but null is a value and is checked.
  if (issues.length > 0) {
    const problems: VariableProblem[] = issues.map((issue) => ({
      id: issue.id,
      kind: issue.kind,
      ...(issue.expected ? { expected: issue.expected } : {}),
      message: issue.message,
    }));
    throw apiError(
      'invalid-variables',
      `${problems.length} variable problem(s) in composition "${metadata.id}": ${problems.map((p) => p.message).join('; ')}.`,
      {
        stage: 'variables',
        details: { problems },
      },
    );
  }
  return values;
}

/** Frames of a render as the producer counts them: round(duration x fps), at least 1. */
export function renderFrames(duration: number, fps: number): number {
  return Math.max(duration > 0 ? 1 : 0, Math.round(duration * fps));
}

/**
 * Refuses a `frames` span past the composition's last frame (400 `invalid-body`, field `frames`,
 * as the body schema refuses a malformed one) and, with 400 `limit-exceeded`, a render over the
 * frame or pixel limit, before it queues. Answers the frames the render outputs.
 */
export function checkRenderDemand(
  metadata: CompositionMetadata,
  fps: number,
  limits: { maxFrames: number; maxPixels: number },
  span?: FrameSpan,
  still?: StillAt,
): number {
  const all = renderFrames(metadata.duration, fps);
  const problem = span && frameSpanProblem(span, all, 'frames', fps);
  if (problem) throw fieldProblem('frames', problem);
  if (still) {
    const shown = stillFrame(still, fpsFromNumber(fps), all, 'time' in still ? 'still.time' : 'still.frame');
    if (!shown.ok) throw fieldProblem('still', shown.message);
  }
  const frames = still ? 1 : span ? spanFrames(span) : all;
  if (frames > limits.maxFrames) {
    throw apiError(
      'limit-exceeded',
      `The render has ${frames} frames (${span ? `frames ${span.start}-${span.end}` : `${metadata.duration} s`} at ${fps} fps), more than this deployment's limit of ${limits.maxFrames}; lower fps, ${span ? 'ask for fewer frames' : 'shorten data-duration'}, or raise RENDER_MAX_FRAMES.`,
      {
        details: { limit: 'maxFrames', value: frames, max: limits.maxFrames },
      },
    );
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > limits.maxPixels) {
    throw apiError(
      'limit-exceeded',
      `A frame is ${metadata.width}x${metadata.height} = ${pixels} pixels, more than this deployment's limit of ${limits.maxPixels}; make data-width/data-height smaller.`,
      {
        details: { limit: 'maxPixels', value: pixels, max: limits.maxPixels },
      },
    );
  }
  return frames;
}

/** 400 `invalid-body` for one field, shaped as the body schema's refusals are (`details.problems`). */
export function fieldProblem(field: string, message: string): SeekframeError {
  return apiError('invalid-body', `The request body is not a render request: ${message}.`, { details: { problems: [{ field, message }] } });
}

export function toJobRequest(body: RenderBody, variables: Record<string, unknown>): RenderJobRequest {
  return {
    variables,
    format: body.format ?? 'mp4',
    ...(body.quality ? { quality: body.quality } : {}),
    ...(body.fps !== undefined ? { fps: body.fps } : {}),
    ...(body.frames !== undefined ? { frames: body.frames } : {}),
    ...(body.still !== undefined ? { still: body.still } : {}),
    ...(body.html !== undefined ? { html: body.html } : {}),
    ...(body.webhook !== undefined ? { webhook: body.webhook } : {}),
  };
}
