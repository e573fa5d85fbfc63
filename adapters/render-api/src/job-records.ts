import { apiError } from './api-error.js';
import type { RenderApiLimits } from './render-api-options.js';
import type { RenderJob, RenderJobRequest, StartJobInput } from './render-job.js';

/** The limits a runner enforces, from the deployment's. */
export function runnerLimits(limits: RenderApiLimits): {
  maxFrames: number;
  maxRenderSeconds: number;
  maxPixels: number;
  maxMemoryMB?: number;
} {
  return {
    maxFrames: limits.maxFrames,
    maxRenderSeconds: limits.maxRenderSeconds,
    maxPixels: limits.maxPixels,
    ...(limits.maxMemoryMB === undefined ? {} : { maxMemoryMB: limits.maxMemoryMB }),
  };
}

export function newJob(id: string, outputKey: string, created: Date, retentionMs: number, input: StartJobInput): RenderJob {
  const { request, totalFrames, bodyHash, idempotencyKey } = input;
  return {
    id,
    status: 'queued',
    stage: null,
    progress: 0,
    framesRendered: 0,
    totalFrames,
    // Not the html: the runner gets it at start, and a job record kept for the retention period
    // holds only what answers a status or an idempotent retry (bodyHash).
    request: withoutHtml(request),
    outputKey,
    createdAt: created.toISOString(),
    updatedAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + retentionMs).toISOString(),
    ...(idempotencyKey ? { idempotencyKey } : {}),
    // A retry names the job by its key or by the caller's id: its body must be the same.
    ...(idempotencyKey || input.id ? { bodyHash } : {}),
  };
}

/** The job an Idempotency-Key names, when the retry sent the same body; else 409. */
export function sameBody(job: RenderJob, bodyHash: string): RenderJob {
  if (job.bodyHash !== bodyHash) {
    const named = job.idempotencyKey === undefined ? `Render id "${job.id}"` : `Idempotency-Key "${job.idempotencyKey}"`;
    throw apiError(
      'idempotency-conflict',
      `${named} was already used with a different body (render ${job.id}); use a new ${job.idempotencyKey === undefined ? 'id' : 'key'} for a different render.`,
      {
        details: { id: job.id },
      },
    );
  }
  return job;
}

function withoutHtml(request: RenderJobRequest): RenderJobRequest {
  const { html: _html, ...rest } = request;
  return rest;
}

/** A delivery of the last event lasts minutes at most (5 attempts of up to 10 s, 85 s apart in all). */
const LAST_DELIVERY_WINDOW_MS = 15 * 60_000;

/**
 * Whether a finished job's last event (render.completed / render.failed) may still be delivered
 * by a runner that sends webhooks itself: not once its last attempt says no retry follows, nor
 * long after the job last changed (a step that died before sending it). Past that, a status
 * request of the finished job asks the runner nothing.
 */
export function deliveryPending(job: RenderJob, at: Date): boolean {
  const last = job.webhookAttempts?.filter((a) => a.event === 'render.completed' || a.event === 'render.failed').at(-1);
  if (last && !last.willRetry) return false;
  return at.getTime() - Date.parse(job.updatedAt) < LAST_DELIVERY_WINDOW_MS;
}
