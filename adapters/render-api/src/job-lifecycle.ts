import type { JobStore } from './ports.js';
import type { JobUpdate, RenderJob } from './render-job.js';

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

/** A change the job store holds: the update as written and the job as stored after it. */
export interface JobChange {
  update: JobUpdate;
  job: RenderJob;
}

/** Hears every stored change of every job (the webhooks, the `onEvent` listener). Never throws. */
export type JobChangeListener = (change: JobChange) => void;

/**
 * The job store with its listeners told of every change it holds: completed, failed, cancelled
 * and progress are whatever `update` stored (from the runner, a detached runner's poll or a
 * cancel), so no path that changes a job can forget to report it.
 */
export function observedJobStore(jobs: JobStore, listeners: readonly JobChangeListener[]): JobStore {
  if (listeners.length === 0) return jobs;
  return {
    create: (job) => jobs.create(job),
    get: (id) => jobs.get(id),
    findByIdempotencyKey: (key) => jobs.findByIdempotencyKey(key),
    ...(jobs.countActive ? { countActive: () => jobs.countActive!() } : {}),
    async update(id, update) {
      const job = await jobs.update(id, update);
      if (job) for (const listener of listeners) listener({ update, job });
      return job;
    },
  };
}

/** The `onEvent` option as a change listener: each stored change named as a lifecycle event. */
export function lifecycleListener(onEvent: (event: JobLifecycleEvent) => void | Promise<void>): JobChangeListener {
  return ({ update, job }) => {
    const type = eventOf(update);
    if (type) emitLifecycleEvent(onEvent, { type, job } as JobLifecycleEvent);
  };
}

/** Tells the listener; a listener's failure (thrown or rejected) is its own, the render goes on. */
export function emitLifecycleEvent(
  onEvent: ((event: JobLifecycleEvent) => void | Promise<void>) | undefined,
  event: JobLifecycleEvent,
): void {
  if (!onEvent) return;
  try {
    void Promise.resolve(onEvent(event)).catch(() => undefined);
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
