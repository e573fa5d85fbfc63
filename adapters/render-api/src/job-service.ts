import { apiError } from './api-error.js';
import { expireRenders } from './expire-renders.js';
import { createJobWebhooks, notifyJobChange } from './job-webhooks.js';
import type { JobStore, ObjectStore, RenderRunner } from './ports.js';
import type { RenderApiLimits, RenderApiWebhooks } from './render-api-options.js';
import { isFinished, jobOutput, type JobUpdate, type RenderJob, type RenderJobRequest } from './render-job.js';
import { runJob } from './run-job.js';

/** Seconds a client waits between status polls; a detached render is re-read at half this. */
export const POLL_SECONDS = 2;
/** Seconds a client is told to wait before retrying at capacity. */
export const CAPACITY_RETRY_SECONDS = 10;

/**
 * What happened to a job, for a listener (webhooks, logs, metrics): called after the job store
 * holds the change, with the job as stored. `progress` follows the store's throttled writes.
 */
export type JobLifecycleEvent =
  | { type: 'started'; job: RenderJob }
  | { type: 'progress'; job: RenderJob }
  | { type: 'completed'; job: RenderJob }
  | { type: 'failed'; job: RenderJob }
  | { type: 'cancelled'; job: RenderJob };

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
 * The origin the API was reached at (`https://x.example`), from the request: a webhook's
 * `render.completed` makes a relative output URL absolute with it, and a runner that sends the
 * events itself gets it as `origin`.
 */
export interface JobRequestContext {
  baseUrl: string;
}

/** A render request that passed its checks (`checkRenderRequest`), ready to become a job. */
export interface StartJobInput {
  request: RenderJobRequest;
  /** null when the composition is not known at start (a project the caller uploaded). */
  totalFrames: number | null;
  bodyHash: string;
  idempotencyKey?: string;
  /**
   * An id the caller chose (the typed Lambda client uploads the project under it first). The job
   * store's `create` then answers `created: false` with the job an id already names, and a repeat
   * with another body is 409 `idempotency-conflict`, as with an Idempotency-Key.
   */
  id?: string;
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
  const jobs = observedJobStore(options.jobs, options.onEvent);
  /** Renders started by this instance: their abort switches and completion promises. */
  const local = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** When this instance last swept the store for renders past retention (see sweepExpired). */
  let lastSweep = Number.NEGATIVE_INFINITY;
  const webhooks = createJobWebhooks(jobs, options.webhooks, { now: () => now().getTime(), waitUntil: options.waitUntil });

  function run(job: RenderJob, request: RenderJobRequest, baseUrl: string): void {
    const controller = new AbortController();
    const listener = webhooks.listenerFor(job, baseUrl);
    const done = runJob(
      { jobs, objects, runner, now: () => now().getTime(), listener },
      job,
      {
        id: job.id,
        request,
        outputKey: job.outputKey,
        contentType: jobOutput(job.request).contentType,
        limits: runnerLimits(limits),
        origin: baseUrl,
      },
      controller.signal,
    )
      // A render that finished after its job expired (a short retention) is deleted at once.
      .then(() => (now().getTime() >= Date.parse(job.expiresAt) ? dropOutput(job) : undefined))
      .finally(() => local.delete(job.id));
    local.set(job.id, { controller, done });
    options.waitUntil?.(done);
    // Deliveries outlive the answer (and the render): the platform keeps them running until they end.
    if (listener) options.waitUntil?.(done.then(() => followDetached(job, baseUrl)).then(() => webhooks.settle(job.id, listener)));
  }

  /**
   * A detached render (the Vercel sandbox) is otherwise learnt of only when a client asks for its
   * status; a webhook exists so that nobody has to ask. So the service asks the runner itself,
   * while this instance may run (`waitUntil` / Next's `after()`: up to the function's maxDuration;
   * a longer render is followed on from the next status request), until the job ends or could no
   * longer be running (its time limit and a minute of grace).
   */
  async function followDetached(job: RenderJob, baseUrl: string): Promise<void> {
    if (!runner.poll) return;
    const every = options.webhooks?.followIntervalMs ?? POLL_SECONDS * 1000;
    const giveUpAt = Date.parse(job.createdAt) + limits.maxRenderSeconds * 1000 + 60_000;
    while (now().getTime() < giveUpAt) {
      const current = await get(job.id, { baseUrl }).catch(() => null);
      if (!current || isFinished(current.status)) return;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }

  /** Marks the job cancelled (it stays so whatever the runner reports next) and stops its render. */
  async function stop(id: string, message: string): Promise<RenderJob | null> {
    const job = await jobs.update(id, {
      status: 'cancelled',
      error: { code: 'render-cancelled', message, stage: 'capture', retryable: false },
    });
    // A cancelled render's webhook hears render.failed with code render-cancelled: its last event.
    const listener = job ? (webhooks.existing(id) ?? webhooks.listenerFor(job, 'http://localhost')) : null;
    if (listener && job?.error) {
      listener.failed(job.error);
      void webhooks.settle(id, listener);
    }
    local.get(id)?.controller.abort();
    await runner.cancel(id);
    return job;
  }

  /** Deletes a job's file (past retention); a failure is left to the next sweep. */
  async function dropOutput(job: RenderJob): Promise<void> {
    await objects.delete(job.outputKey).catch(() => undefined);
  }

  /**
   * Renders past retention are deleted from stores with no lifecycle rule of their own (a local
   * folder, Vercel Blob: `objects.list`): swept on new renders, at most once per retention period
   * or minute per instance, in the background (`waitUntil` where the platform needs it). The
   * first status request after expiry deletes that job's file too (get).
   */
  function sweepExpired(): void {
    const at = now().getTime();
    if (!objects.list || at - lastSweep < Math.min(retentionMs, 60_000)) return;
    lastSweep = at;
    options.waitUntil?.(expireRenders(objects, retentionMs, at).catch(() => []));
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
    if (!isFinished(job.status) && runner.poll && !local.has(id)) {
      const update = await runner.poll(job);
      if (update) {
        const before = job;
        job = (await jobs.update(id, update)) ?? job;
        // A detached render's events are learnt here: its webhook hears what changed.
        const listener = context ? webhooks.listenerFor(job, context.baseUrl) : null;
        if (listener) {
          notifyJobChange(listener, before, job);
          void webhooks.settle(id, listener);
        }
      }
    } else if (isFinished(job.status) && runner.poll && runner.deliversWebhooks && job.request.webhook && deliveryPending(job, now())) {
      // The outcome is settled (a cancel stays a cancel); only the deliveries of the last event go on.
      const attempts = (await runner.poll(job))?.webhookAttempts;
      if (attempts) job = (await jobs.update(id, { webhookAttempts: attempts })) ?? job;
    }
    return job;
  }

  /**
   * The client of a synchronous answer never learnt the job's id, so when it goes away nobody
   * could cancel the render: it is cancelled here, its slot freed, as the producer server does.
   * `request.signal` aborts when the client disconnects (@hono/node-server; Workers with the
   * `enable_request_signal` flag; Next route handlers). Returns the function that stops watching.
   */
  function cancelOnAbort(signal: AbortSignal, id: string): () => void {
    const onAbort = (): void => {
      void (async () => {
        const job = await jobs.get(id);
        if (job && !isFinished(job.status))
          await stop(id, `Render ${id} was cancelled: the client of the synchronous POST /api/render disconnected before it finished.`);
      })().catch(() => undefined);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
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
          {
            retryable: true,
            details: { maxConcurrentRenders: maxConcurrent },
          },
        );
      }
      const id = input.id ?? newId(input);
      const job = newJob(id, outputKey(id, input.request), now(), retentionMs, input);
      const stored = await jobs.create(job);
      if (!stored.created) return { job: sameBody(stored.job, bodyHash), created: false };
      emit(options.onEvent, { type: 'started', job });
      run(job, request, context.baseUrl);
      sweepExpired();
      return { job, created: true };
    },

    get,

    async wait(id, { cancelOnAbort: signal, context } = {}) {
      const stopWatching = signal ? cancelOnAbort(signal, id) : () => undefined;
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

/** The limits a runner enforces, from the deployment's. */
function runnerLimits(limits: RenderApiLimits): { maxFrames: number; maxRenderSeconds: number; maxPixels: number; maxMemoryMB?: number } {
  return {
    maxFrames: limits.maxFrames,
    maxRenderSeconds: limits.maxRenderSeconds,
    maxPixels: limits.maxPixels,
    ...(limits.maxMemoryMB === undefined ? {} : { maxMemoryMB: limits.maxMemoryMB }),
  };
}

function newJob(id: string, outputKey: string, created: Date, retentionMs: number, input: StartJobInput): RenderJob {
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
function sameBody(job: RenderJob, bodyHash: string): RenderJob {
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

function emit(listener: JobServiceOptions['onEvent'], event: JobLifecycleEvent): void {
  if (!listener) return;
  try {
    void Promise.resolve(listener(event)).catch(() => undefined);
  } catch {
    // a listener's failure is its own; the render goes on
  }
}

/** Which lifecycle event a stored update is, if any. */
function eventOf(update: JobUpdate): JobLifecycleEvent['type'] | null {
  if (update.status === 'completed' || update.status === 'failed' || update.status === 'cancelled') return update.status;
  if (update.progress !== undefined || update.stage !== undefined) return 'progress';
  return null;
}

/**
 * The job store with the listener told of every change it holds: completed, failed, cancelled
 * and progress are whatever `update` stored (from the runner, a detached runner's poll or a
 * cancel), so no path that changes a job can forget to report it.
 */
function observedJobStore(jobs: JobStore, listener: JobServiceOptions['onEvent']): JobStore {
  if (!listener) return jobs;
  return {
    create: (job) => jobs.create(job),
    get: (id) => jobs.get(id),
    findByIdempotencyKey: (key) => jobs.findByIdempotencyKey(key),
    ...(jobs.countActive ? { countActive: () => jobs.countActive!() } : {}),
    async update(id, update) {
      const job = await jobs.update(id, update);
      const type = eventOf(update);
      if (job && type) emit(listener, { type, job } as JobLifecycleEvent);
      return job;
    },
  };
}

/** A delivery of the last event lasts minutes at most (5 attempts of up to 10 s, 85 s apart in all). */
const LAST_DELIVERY_WINDOW_MS = 15 * 60_000;

/**
 * Whether a finished job's last event (render.completed / render.failed) may still be delivered
 * by a runner that sends webhooks itself: not once its last attempt says no retry follows, nor
 * long after the job last changed (a step that died before sending it). Past that, a status
 * request of the finished job asks the runner nothing.
 */
function deliveryPending(job: RenderJob, at: Date): boolean {
  const last = job.webhookAttempts?.filter((a) => a.event === 'render.completed' || a.event === 'render.failed').at(-1);
  if (last && !last.willRetry) return false;
  return at.getTime() - Date.parse(job.updatedAt) < LAST_DELIVERY_WINDOW_MS;
}
