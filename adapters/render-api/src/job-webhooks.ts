import { createWebhookNotifier, type RenderLifecycleListener } from '@seekframe/producer/webhooks';
import type { JobStore } from './ports.js';
import type { RenderApiWebhooks } from './render-api-options.js';
import { isFinished, type RenderJob } from './render-job.js';

/**
 * The wiring point between a job's life cycle and its webhook: the job code calls the listener
 * this returns (started, progress, completed, failed); the listener signs and delivers the events
 * in the background and writes every attempt into the job record (`webhookAttempts`, shown by
 * `GET /api/render/:id`). Null when the job has no webhook or the deployment no secret.
 */
export function jobWebhookListener(
  job: RenderJob,
  jobs: JobStore,
  webhooks: RenderApiWebhooks | undefined,
  context: { now: () => number; baseUrl: string },
): JobWebhookListener | null {
  const webhook = job.request.webhook;
  if (!webhook || !webhooks?.secret || !webhooks.send) return null;
  const notifier = createWebhookNotifier({
    renderId: job.id,
    webhook,
    secret: webhooks.secret,
    send: webhooks.send,
    ...(webhooks.retryDelaysMs ? { retryDelaysMs: webhooks.retryDelaysMs } : {}),
    ...(webhooks.timeoutMs !== undefined ? { timeoutMs: webhooks.timeoutMs } : {}),
    ...(webhooks.progressIntervalMs !== undefined ? { progressIntervalMs: webhooks.progressIntervalMs } : {}),
    ...(job.webhookAttempts ? { previous: job.webhookAttempts } : {}),
    now: context.now,
    record: async (attempts) => {
      await jobs.update(job.id, { webhookAttempts: attempts });
    },
  });
  return Object.assign(notifier, { baseUrl: context.baseUrl });
}

/** The listener plus the origin the API was reached at, to make a relative output URL absolute. */
export type JobWebhookListener = RenderLifecycleListener & { baseUrl: string };

/** The webhook listeners of the jobs one API instance started or polled (one per job). */
export interface JobWebhooks {
  /** The job's listener, made on first use; null when the job has no webhook or the deployment no secret. */
  listenerFor(job: RenderJob, baseUrl: string): JobWebhookListener | null;
  /** The listener already made for a job, if any. */
  existing(id: string): JobWebhookListener | undefined;
  /** Waits for the job's deliveries (kept alive by `waitUntil`); forgets its listener once the job is finished. */
  settle(id: string, listener: JobWebhookListener): Promise<void>;
}

export function createJobWebhooks(
  jobs: JobStore,
  webhooks: RenderApiWebhooks | undefined,
  context: { now: () => number; waitUntil?: ((promise: Promise<unknown>) => void) | undefined },
): JobWebhooks {
  /** Until their final event. */
  const listeners = new Map<string, JobWebhookListener>();
  return {
    listenerFor(job, baseUrl) {
      const existing = listeners.get(job.id);
      if (existing) return existing;
      const listener = jobWebhookListener(job, jobs, webhooks, { now: context.now, baseUrl });
      if (!listener) return null;
      listeners.set(job.id, listener);
      return listener;
    },
    existing: (id) => listeners.get(id),
    settle(id, listener) {
      const settled = listener.settled().then(async () => {
        const current = await jobs.get(id).catch(() => null);
        if (!current || isFinished(current.status)) listeners.delete(id);
      });
      context.waitUntil?.(settled);
      return settled;
    },
  };
}

/**
 * Tells the listener what changed between two records of one job: for runners that render
 * elsewhere (`detached`), whose progress the API only learns by polling.
 */
export function notifyJobChange(listener: JobWebhookListener, before: RenderJob, after: RenderJob): void {
  if (after.status === 'running' && before.status === 'queued') listener.started();
  if (!isFinished(after.status) && after.framesRendered !== before.framesRendered) listener.progress(progressData(after));
  if (isFinished(before.status)) return;
  if (after.status === 'completed' && after.result) listener.completed(completedData(after, listener.baseUrl));
  // A cancelled render ends with render.failed, code render-cancelled.
  if ((after.status === 'failed' || after.status === 'cancelled') && after.error) listener.failed(after.error);
}

export function progressData(job: Pick<RenderJob, 'progress' | 'stage' | 'framesRendered' | 'totalFrames'>) {
  return { progress: job.progress, stage: job.stage, framesRendered: job.framesRendered, totalFrames: job.totalFrames };
}

/** `render.completed`'s data; a URL on this app (`/api/render/<id>`) is made absolute. */
export function completedData(job: RenderJob, baseUrl: string) {
  const result = job.result!;
  return { url: new URL(result.url, baseUrl).href, size: result.size ?? null, durationMs: result.durationMs, frames: job.totalFrames };
}
