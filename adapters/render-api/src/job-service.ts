import { apiError } from './api-error.js';
import { cancelOnDisconnect } from './cancel-on-disconnect.js';
import { createExpirySweeper } from './expire-renders.js';
import { followDetached } from './follow-detached.js';
import {
  emitLifecycleEvent,
  lifecycleListener,
  observedJobStore,
  type JobChangeListener,
  type JobLifecycleEvent,
} from './job-lifecycle.js';
import { deliveryPending, newJob, runnerLimits, sameBody } from './job-records.js';
import { createJobWebhooks } from './job-webhooks.js';
import type { JobStore, ObjectStore, RenderRunner } from './ports.js';
import type { RenderApiLimits, RenderApiWebhooks } from './render-api-options.js';
import { isFinished, jobOutput, type JobRequestContext, type RenderJob, type RenderJobRequest, type StartJobInput } from './render-job.js';
import { runJob } from './run-job.js';

export type { JobLifecycleEvent } from './job-lifecycle.js';
export type { JobRequestContext, StartJobInput } from './render-job.js';

/** Seconds a client waits between status polls; a detached render is re-read at half this. */
export const POLL_SECONDS = 2;
/** Seconds a client is told to wait before retrying at capacity. */
export const CAPACITY_RETRY_SECONDS = 10;

export interface JobServiceOptions {
  runner: RenderRunner;
  jobs: JobStore;
  objects: ObjectStore;
  limits: RenderApiLimits;
  /** Queued + running jobs at once before 429 (needs `jobs.countActive`). Default 2. */
  maxConcurrentRenders?: number;
  /** How long a job and its output stay fetchable. Default 24 h. */
  retentionSeconds?: number;
  /** Longest `wait` before it gives up (the sync POST then answers 202). Default 840 s. */
  syncTimeoutMs?: number;
  waitUntil?: (promise: Promise<unknown>) => void;
  newId?: (input: StartJobInput) => string;
  /** The object key a job's output is stored under; default `renders/<id>.<format>`. */
  outputKey?: (id: string, request: RenderJobRequest) => string;
  now?: () => Date;
  /** Hears every lifecycle change; a throwing listener never breaks a render. */
  onEvent?: (event: JobLifecycleEvent) => void | Promise<void>;
  /** Signed webhooks: each job with a `webhook` gets its events delivered (job-webhooks.ts). */
  webhooks?: RenderApiWebhooks;
}

/**
 * The render job lifecycle every template shares: start (with idempotency and the capacity
 * check), status (refreshed from a detached runner; 404 unknown, 410 expired), wait, cancel,
 * expiry. Plain functions over the three ports; the routes (render-routes.ts) only translate
 * HTTP to these calls.
 */
export interface JobService {
  /** A new job, or the one an Idempotency-Key already names (`created: false`). Throws
   *  `idempotency-conflict` (same key, other body) and `too-many-renders` (at capacity). */
  start(input: StartJobInput, context: JobRequestContext): Promise<{ job: RenderJob; created: boolean }>;
  /** The job by id, refreshed from a detached runner (whose webhook then hears what changed,
   *  given the context); throws 404 `render-not-found`, 410 `render-expired`. */
  get(id: string, context?: JobRequestContext): Promise<RenderJob>;
  /** Waits until the job ends or the sync timeout passes (then the unfinished job). With
   *  `cancelOnAbort`, the signal aborting (the client left) cancels the job. */
  wait(id: string, options?: { cancelOnAbort?: AbortSignal; context?: JobRequestContext }): Promise<RenderJob | null>;
  /** Cancels a queued or running job; throws 409 `render-not-running` for a finished one. */
  cancel(id: string, message: string): Promise<RenderJob>;
}

export function createJobService(options: JobServiceOptions): JobService {
  const { runner, objects, limits } = options;
  const maxConcurrent = options.maxConcurrentRenders ?? 2;
  const retentionMs = (options.retentionSeconds ?? 24 * 3600) * 1000;
  const syncTimeoutMs = options.syncTimeoutMs ?? 840_000;
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => crypto.randomUUID());
  const outputKey = options.outputKey ?? ((id: string, request: RenderJobRequest) => `renders/${id}.${jobOutput(request).extension}`);
  // The webhooks and the onEvent listener hear every change the store holds, whoever made it.
  const webhooks = createJobWebhooks(options.jobs, options.webhooks, { now: () => now().getTime(), waitUntil: options.waitUntil });
  const listeners: JobChangeListener[] = [webhooks.onChange, ...(options.onEvent ? [lifecycleListener(options.onEvent)] : [])];
  const jobs = observedJobStore(options.jobs, listeners);
  const sweepExpired = createExpirySweeper(objects, retentionMs, options.waitUntil);
  /** Renders started by this instance: their abort switches and completion promises. */
  const local = new Map<string, { controller: AbortController; done: Promise<void> }>();

  function run(job: RenderJob, request: RenderJobRequest, baseUrl: string): void {
    const controller = new AbortController();
    const runnerJob = {
      id: job.id,
      request,
      outputKey: job.outputKey,
      contentType: jobOutput(job.request).contentType,
      limits: runnerLimits(limits),
      origin: baseUrl,
    };
    const done = runJob({ jobs, objects, runner, now: () => now().getTime() }, job, runnerJob, controller.signal)
      // A render that finished after its job expired (a short retention) is deleted at once.
      .then(() => (now().getTime() >= Date.parse(job.expiresAt) ? dropOutput(job) : undefined))
      .finally(() => local.delete(job.id));
    local.set(job.id, { controller, done });
    options.waitUntil?.(done);
    if (!webhooks.wants(job) || !runner.poll) return;
    // A detached render's webhook hears its events only if someone asks the runner: this instance
    // does while it may run, then its last deliveries settle.
    const follow = { get: (id: string) => get(id, { baseUrl }), now, maxRenderSeconds: limits.maxRenderSeconds };
    const everyMs = options.webhooks?.followIntervalMs ?? POLL_SECONDS * 1000;
    options.waitUntil?.(done.then(() => followDetached(job, { ...follow, everyMs })).then(() => webhooks.settled(job.id)));
  }

  /** Marks the job cancelled (it stays so whatever the runner reports next) and stops its render. */
  async function stop(id: string, message: string): Promise<RenderJob | null> {
    // The store holds the cancel, so the webhook hears render.failed with code render-cancelled: its last event.
    const job = await jobs.update(id, {
      status: 'cancelled',
      error: { code: 'render-cancelled', message, stage: 'capture', retryable: false },
    });
    local.get(id)?.controller.abort();
    await runner.cancel(id);
    return job;
  }

  /** Deletes a job's file (past retention); a failure is left to the next sweep. */
  async function dropOutput(job: RenderJob): Promise<void> {
    await objects.delete(job.outputKey).catch(() => undefined);
  }

  async function get(id: string, context?: JobRequestContext): Promise<RenderJob> {
    let job = await jobs.get(id);
    if (!job) throw apiError('render-not-found', `No render with id "${id}"; POST /api/render answers the id to poll.`);
    if (Date.parse(job.expiresAt) <= now().getTime()) {
      await dropOutput(job);
      throw apiError('render-expired', `Render ${id} expired at ${job.expiresAt}; its output is no longer kept. Render again.`, {
        details: { expiresAt: job.expiresAt },
      });
    }
    if (context) webhooks.reachedAt(id, context.baseUrl);
    if (!isFinished(job.status) && runner.poll && !local.has(id)) {
      // A detached render's progress is learnt here; the store tells its webhook what changed.
      const update = await runner.poll(job);
      if (update) job = (await jobs.update(id, update)) ?? job;
    } else if (isFinished(job.status) && runner.poll && runner.deliversWebhooks && job.request.webhook && deliveryPending(job, now())) {
      // The outcome is settled (a cancel stays a cancel); only the deliveries of the last event go on.
      const attempts = (await runner.poll(job))?.webhookAttempts;
      if (attempts) job = (await jobs.update(id, { webhookAttempts: attempts })) ?? job;
    }
    return job;
  }

  return {
    async start(input, context) {
      const { request, bodyHash, idempotencyKey } = input;
      if (idempotencyKey) {
        // Answered before the capacity check: a retry of an accepted request is not a new render.
        // (The store also resolves keys atomically in create() for two requests at once.)
        const existing = await jobs.findByIdempotencyKey(idempotencyKey);
        if (existing) return { job: sameBody(existing, bodyHash), created: false };
      }
      if (jobs.countActive && (await jobs.countActive()) >= maxConcurrent) {
        throw apiError(
          'too-many-renders',
          `This deployment is rendering ${maxConcurrent} video(s) already; try again in ${CAPACITY_RETRY_SECONDS} s.`,
          { retryable: true, details: { maxConcurrentRenders: maxConcurrent } },
        );
      }
      const id = input.id ?? newId(input);
      const job = newJob(id, outputKey(id, input.request), now(), retentionMs, input);
      const stored = await jobs.create(job);
      if (!stored.created) return { job: sameBody(stored.job, bodyHash), created: false };
      emitLifecycleEvent(options.onEvent, { type: 'started', job });
      webhooks.reachedAt(id, context.baseUrl);
      run(job, request, context.baseUrl);
      sweepExpired(now().getTime());
      return { job, created: true };
    },

    get,

    async wait(id, { cancelOnAbort: signal, context } = {}) {
      const stopWatching = signal ? cancelOnDisconnect(signal, id, { jobs, stop }) : () => undefined;
      try {
        const deadline = now().getTime() + syncTimeoutMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, syncTimeoutMs);
        });
        await Promise.race([local.get(id)?.done ?? Promise.resolve(), timeout]);
        // A detached runner (or another instance) finishes elsewhere: poll until it ends or time runs out.
        let job = await get(id, context).catch(() => null);
        while (job && !isFinished(job.status) && now().getTime() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, POLL_SECONDS * 500));
          job = await get(id, context).catch(() => null);
        }
        if (timer !== undefined) clearTimeout(timer);
        return job;
      } finally {
        stopWatching();
      }
    },

    async cancel(id, message) {
      const job = await get(id);
      if (isFinished(job.status)) {
        throw apiError(
          'render-not-running',
          `Render ${job.id} is already ${job.status}; only a queued or running render can be cancelled.`,
          { details: { status: job.status } },
        );
      }
      return (await stop(id, message)) ?? job;
    },
  };
}
