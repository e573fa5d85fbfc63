import { createWebhookNotifier, type RenderLifecycleListener } from '@seekframe/producer/webhooks';
import type { JobChangeListener } from './job-lifecycle.js';
import type { JobStore } from './ports.js';
import type { RenderApiWebhooks } from './render-api-options.js';
import { isFinished, type JobUpdate, type RenderJob } from './render-job.js';

/**
 * One job's webhook: told what happened (started, progress, completed, failed: notifyJobUpdate),
 * it signs and delivers the events in the background and writes every attempt into the job record (`webhookAttempts`, shown by
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

/** The origin a job's webhook uses until the API learns where it was reached (a cancel from elsewhere). */
const UNKNOWN_ORIGIN = 'http://localhost';

/**
 * The webhooks of the jobs one API instance sees, as a listener on the job store's changes: each
 * stored change of a job with a webhook is told to its listener (notifyJobUpdate), whichever path
 * made it (the runner, a detached runner's poll, a cancel).
 */
export interface JobWebhooks {
  /** Whether the job's events are delivered from here (it has a webhook; the deployment a secret and a sender). */
  wants(job: RenderJob): boolean;
  /** The origin the API was reached at for this job: render.completed makes a relative output URL absolute with it. */
  reachedAt(id: string, baseUrl: string): void;
  /** The job store's change listener. */
  onChange: JobChangeListener;
  /** Resolves once the job's deliveries in flight have ended (at once when it has none). */
  settled(id: string): Promise<void>;
}

export function createJobWebhooks(
  jobs: JobStore,
  webhooks: RenderApiWebhooks | undefined,
  context: { now: () => number; waitUntil?: ((promise: Promise<unknown>) => void) | undefined },
): JobWebhooks {
  /** Until their final event is delivered. */
  const listeners = new Map<string, JobWebhookListener>();
  const origins = new Map<string, string>();
  const wants = (job: RenderJob): boolean => Boolean(job.request.webhook && webhooks?.secret && webhooks.send);
  const listenerFor = (job: RenderJob): JobWebhookListener | null => {
    const existing = listeners.get(job.id);
    if (existing) return existing;
    const listener = jobWebhookListener(job, jobs, webhooks, { now: context.now, baseUrl: origins.get(job.id) ?? UNKNOWN_ORIGIN });
    if (listener) listeners.set(job.id, listener);
    return listener;
  };
  return {
    wants,
    reachedAt(id, baseUrl) {
      if (!webhooks?.secret || !webhooks.send) return;
      origins.set(id, baseUrl);
      const listener = listeners.get(id);
      if (listener) listener.baseUrl = baseUrl;
    },
    onChange({ update, job }) {
      if (!wants(job)) {
        // A job without a webhook needs no origin either, once it has ended (a long-running server forgets it).
        if (isFinished(job.status)) origins.delete(job.id);
        return;
      }
      const listener = listenerFor(job);
      if (!listener) return;
      notifyJobUpdate(listener, update, job);
      if (!isFinished(job.status)) return;
      // The last event's deliveries (and retries) outlive the answer: the platform keeps them running.
      const settled = listener.settled().then(() => {
        listeners.delete(job.id);
        origins.delete(job.id);
      });
      context.waitUntil?.(settled);
    },
    settled: (id) => listeners.get(id)?.settled() ?? Promise.resolve(),
  };
}

/**
 * Tells a job's webhook what a stored update changed: running is render.started, new frames are
 * render.progress (the notifier throttles them), completed and failed (a cancel: render.failed
 * with code render-cancelled) end it. A status the store did not take (a finished job keeps its
 * ending, mergeJobUpdate) is no event. The notifier sends each event once, so a repeated update
 * (a detached runner polled twice) sends nothing new.
 */
export function notifyJobUpdate(listener: JobWebhookListener, update: JobUpdate, after: RenderJob): void {
  if (update.status !== undefined && update.status !== after.status) return;
  if (update.status === 'running') listener.started();
  if (update.framesRendered !== undefined && !isFinished(after.status)) listener.progress(progressData(after));
  if (update.status === 'completed' && after.result) listener.completed(completedData(after, listener.baseUrl));
  if ((update.status === 'failed' || update.status === 'cancelled') && after.error) listener.failed(after.error);
}

export function progressData(job: Pick<RenderJob, 'progress' | 'stage' | 'framesRendered' | 'totalFrames'>) {
  return { progress: job.progress, stage: job.stage, framesRendered: job.framesRendered, totalFrames: job.totalFrames };
}

/** `render.completed`'s data; a URL on this app (`/api/render/<id>`) is made absolute. */
export function completedData(job: RenderJob, baseUrl: string) {
  const result = job.result!;
  return { url: new URL(result.url, baseUrl).href, size: result.size ?? null, durationMs: result.durationMs, frames: job.totalFrames };
}
