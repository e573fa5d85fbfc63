import { randomUUID } from 'node:crypto';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import type { RenderEvent } from '../render/render-events.js';
import { RenderQueue, type QueueStatus, type QueueTicket } from './render-queue.js';
import { isFinishedStatus, type JobEvent, type JobListener, type JobRunner, type JobSnapshot } from './render-job.js';

export interface RenderJobsOptions<Request, Result> {
  run: JobRunner<Request, Result>;
  /** Jobs running at once (default 2). */
  maxConcurrent?: number;
  /** Jobs waiting at most; one more is refused with `too-many-renders` (default: no bound). */
  maxQueued?: number;
  /** How long a job is remembered after it ended (default 1 hour); then `get` is null and `expired` true. */
  retainMs?: number;
  /** How many expired ids are remembered as expired (default 10 000, oldest forgotten first). */
  maxExpiredIds?: number;
  newId?: () => string;
  /** Milliseconds since the epoch (tests move it by hand). */
  now?: () => number;
}

export interface RenderJobs<Request, Result> {
  /** Queues a job (FIFO); throws `too-many-renders` (retryable) when the line is full, `shutting-down` after `shutdown`. */
  submit(request: Request): JobSnapshot<Result>;
  /** The job's current state; null when unknown or expired (see `expired`). */
  get(id: string): JobSnapshot<Result> | null;
  /** True for an id that existed and was forgotten after `retainMs` (a host answers 410, not 404). */
  expired(id: string): boolean;
  /**
   * Cancels a waiting job at once, or aborts a running one (it ends `cancelled` when its runner
   * settles). False when the job is unknown or already finished.
   */
  cancel(id: string, reason?: string): boolean;
  /** Calls `listener` with a `snapshot` now, then with every event; returns the unsubscribe, or null for an unknown id. */
  subscribe(id: string, listener: JobListener<Result>): (() => void) | null;
  /** Resolves with the final state (null for an unknown id). */
  settled(id: string): Promise<JobSnapshot<Result> | null>;
  status(): QueueStatus;
  /** Resolves once nothing runs. */
  idle(): Promise<void>;
  /** Refuses new jobs, cancels the waiting, gives the running `graceMs`, aborts the rest, waits for them. */
  shutdown(options?: { reason?: string; graceMs?: number }): Promise<void>;
}

interface Entry<Result> {
  job: JobSnapshot<Result>;
  listeners: Set<JobListener<Result>>;
  /** Until the job ends: what a render hung on its signal (abort listeners and their closures) goes with it. */
  controller?: AbortController | undefined;
  ticket?: QueueTicket | undefined;
  endedAtMs?: number;
}

type FinalEvent<Result> = Extract<JobEvent<Result>, { type: 'completed' | 'failed' | 'cancelled' }>;

const DEFAULT_RETAIN_MS = 60 * 60 * 1000;

/**
 * The render job service without HTTP: a FIFO with a concurrency limit and a bounded line, each
 * job's state (status, stage, progress, result or error) kept while it runs and for `retainMs`
 * after it ends, and subscriptions that replay the current state first. The producer server sits
 * on it; deploy templates can too. Forgetting is lazy (checked on every call), so the service
 * holds no timers and never keeps a process alive.
 */
export function createRenderJobs<Request, Result>(options: RenderJobsOptions<Request, Result>): RenderJobs<Request, Result> {
  const maxConcurrent = options.maxConcurrent ?? 2;
  const maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
  const newId = options.newId ?? randomUUID;
  const now = options.now ?? Date.now;
  const queue = new RenderQueue(maxConcurrent);
  const retention = createJobRetention<Entry<Result>>(options.retainMs ?? DEFAULT_RETAIN_MS, options.maxExpiredIds ?? 10_000, now);
  const { entries, forget: forgetExpired } = retention;
  /** Requests are held only until the job ends; snapshots never carry them. */
  const requests = new Map<string, Request>();
  let closed = false;

  const iso = (): string => new Date(now()).toISOString();

  const finish = (entry: Entry<Result>, event: FinalEvent<Result>): void => {
    if (isFinishedStatus(entry.job.status)) return;
    settleJob(entry.job, event, iso());
    entry.endedAtMs = now();
    retention.ended(entry.job.id);
    emit(entry, event);
    // A finished job is kept for `retainMs` to answer GET /render/:id: only its snapshot is needed.
    // Its controller's signal still holds whatever the render attached to it, and its listeners
    // their streams; dropping them keeps a retained job small.
    entry.listeners.clear();
    entry.controller = undefined;
    entry.ticket = undefined;
  };

  const runEntry = async (entry: Entry<Result>): Promise<void> => {
    Object.assign(entry.job, { status: 'running', position: 0, startedAt: iso() });
    emit(entry, { type: 'started' });
    const { signal } = entry.controller!;
    try {
      const result = await options.run(requests.get(entry.job.id) as Request, {
        id: entry.job.id,
        signal,
        report: (event) => report(entry, event),
      });
      finish(entry, { type: 'completed', result });
    } catch (error) {
      if (signal.aborted) finish(entry, { type: 'cancelled', reason: reasonOf(signal) });
      else finish(entry, { type: 'failed', error: toSeekframeError(error, { code: 'render-failed' }).toJSON() });
    } finally {
      requests.delete(entry.job.id);
    }
  };
  function cancel(id: string, reason = 'cancelled'): boolean {
    forgetExpired();
    const entry = entries.get(id);
    if (!entry || isFinishedStatus(entry.job.status)) return false;
    if (entry.ticket?.leave()) {
      requests.delete(id);
      finish(entry, { type: 'cancelled', reason });
    } else if (entry.controller && !entry.controller.signal.aborted) {
      entry.controller.abort(new Error(reason));
    }
    return true;
  }

  function subscribe(id: string, listener: JobListener<Result>): (() => void) | null {
    forgetExpired();
    const entry = entries.get(id);
    if (!entry) return null;
    listener({ type: 'snapshot' }, copy(entry.job));
    if (isFinishedStatus(entry.job.status)) return () => undefined;
    entry.listeners.add(listener);
    return () => void entry.listeners.delete(listener);
  }

  return {
    submit(request) {
      forgetExpired();
      if (closed)
        throw new SeekframeError('shutting-down', 'The render service is shutting down and takes no new jobs.', {
          stage: 'config',
          retryable: true,
        });
      const { activeRenders, queuedRenders } = queue.status();
      if (activeRenders >= maxConcurrent && queuedRenders >= maxQueued) throw queueFullError(queuedRenders, maxQueued);
      const id = newId();
      const entry = newEntry<Result>(id, iso());
      entries.set(id, entry);
      requests.set(id, request);
      entry.ticket = queue.enqueue(
        id,
        () => runEntry(entry),
        (position) => moveInLine(entry, position),
      );
      // Started at once (position 0): the queue runs it in a microtask, so it counts as running now.
      if (entry.ticket.position === 0) entry.job.status = 'running';
      else entry.job.position = entry.ticket.position;
      return copy(entry.job);
    },

    get(id) {
      forgetExpired();
      const entry = entries.get(id);
      return entry ? copy(entry.job) : null;
    },

    expired(id) {
      forgetExpired();
      return retention.expired(id);
    },

    cancel,
    subscribe,

    settled(id) {
      return new Promise((resolve) => {
        const stop = subscribe(id, (_event, job) => {
          if (isFinishedStatus(job.status)) resolve(job);
        });
        if (!stop) resolve(null);
      });
    },

    status: () => queue.status(),
    idle: () => queue.idle(),

    async shutdown({ reason = 'the server is shutting down', graceMs = 0 } = {}) {
      closed = true;
      for (const entry of [...entries.values()]) if (entry.job.status === 'queued') cancel(entry.job.id, reason);
      if (graceMs > 0) await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      for (const entry of entries.values())
        if (entry.job.status === 'running' && entry.controller && !entry.controller.signal.aborted)
          entry.controller.abort(new Error(reason));
      await queue.idle();
    },
  };
}

/**
 * Which jobs are still remembered: every job until `retainMs` after it ended, then only its id
 * (the newest `maxExpiredIds`). Lazy: `forget()` runs on every call of the service, no timers.
 */
function createJobRetention<E extends { endedAtMs?: number }>(retainMs: number, maxExpiredIds: number, now: () => number) {
  const entries = new Map<string, E>();
  /** Finished ids in the order they ended: the oldest is the next to expire. */
  const finished: string[] = [];
  const expiredIds = new Set<string>();
  return {
    entries,
    forget(): void {
      const cutoff = now() - retainMs;
      while (finished.length > 0) {
        const entry = entries.get(finished[0]!);
        if (entry && (entry.endedAtMs ?? 0) > cutoff) break;
        const id = finished.shift()!;
        entries.delete(id);
        expiredIds.add(id);
        if (expiredIds.size > maxExpiredIds) expiredIds.delete(expiredIds.values().next().value as string);
      }
    },
    /** The job ended now (its entry's endedAtMs is set): it is the newest to expire. */
    ended: (id: string): void => void finished.push(id),
    expired: (id: string): boolean => expiredIds.has(id),
  };
}

// Helpers that touch only the entry they are given live out here; the closure above keeps what
// touches the service's own state (the queue, the maps, the clock). See "Stateful objects" in
// docs/contributing/architecture.md.

/** Tells every listener of the entry; a finished job's listeners are dropped after its last event. */
function emit<Result>(entry: Entry<Result>, event: JobEvent<Result>): void {
  const snapshot = copy(entry.job);
  for (const listener of [...entry.listeners]) {
    try {
      listener(event, snapshot);
    } catch {
      // A broken listener (a closed socket) must not break the job or the other listeners.
    }
  }
  if (isFinishedStatus(entry.job.status)) entry.listeners.clear();
}

function newEntry<Result>(id: string, createdAt: string): Entry<Result> {
  return {
    job: { id, status: 'queued', stage: null, progress: 0, framesRendered: 0, totalFrames: null, position: 0, createdAt },
    listeners: new Set(),
    controller: new AbortController(),
  };
}

function queueFullError(queuedRenders: number, maxQueued: number): SeekframeError {
  return new SeekframeError(
    'too-many-renders',
    `${queuedRenders} renders are already waiting (the most this server queues); try again once some have finished.`,
    {
      stage: 'config',
      retryable: true,
      details: { queuedRenders, maxQueued },
    },
  );
}

/** A waiting job moved up the line: its position changes and its listeners hear it. */
function moveInLine<Result>(entry: Entry<Result>, position: number): void {
  if (entry.job.status !== 'queued') return;
  entry.job.position = position;
  emit(entry, { type: 'queued', position });
}

/** Writes the job's final state from its final event (the caller checked it had not ended). */
function settleJob<Result>(job: JobSnapshot<Result>, event: FinalEvent<Result>, endedAt: string): void {
  if (event.type === 'completed') Object.assign(job, { status: 'completed', result: event.result, progress: 1 });
  else if (event.type === 'failed') Object.assign(job, { status: 'failed', error: event.error });
  else Object.assign(job, { status: 'cancelled', reason: event.reason });
  job.position = 0;
  job.endedAt = endedAt;
}

/** A running job's render event: stage and progress update the job, then its listeners hear it. */
function report<Result>(entry: Entry<Result>, event: RenderEvent): void {
  if (isFinishedStatus(entry.job.status)) return;
  if (event.type === 'stage') entry.job.stage = event.stage;
  else if (event.type === 'progress') {
    Object.assign(entry.job, {
      stage: event.stage,
      framesRendered: event.framesRendered,
      totalFrames: event.totalFrames,
      progress: Math.min(1, Math.max(0, event.percent / 100)),
    });
  } else if (event.type !== 'warning') return;
  emit(entry, event);
}

function copy<Result>(job: JobSnapshot<Result>): JobSnapshot<Result> {
  return { ...job };
}

export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : reason === undefined ? 'cancelled' : String(reason);
}
