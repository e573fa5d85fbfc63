import type { JobStore } from './ports.js';
import { isFinished, mergeJobUpdate, type RenderJob } from './render-job.js';

/**
 * Job records in a Map: the local store, and a model of the semantics the platform stores must
 * keep (create-or-return-existing by Idempotency-Key, atomic within one process).
 * Platform-neutral so a single Worker isolate or a test can use it too.
 */
export function createMemoryJobStore(options: { now?: () => Date } = {}): JobStore {
  const now = options.now ?? (() => new Date());
  const byId = new Map<string, RenderJob>();
  const byKey = new Map<string, string>();
  const copy = (job: RenderJob): RenderJob => structuredClone(job);
  return {
    async create(job) {
      const same = byId.get(job.id);
      if (same) return { created: false, job: copy(same) };
      if (job.idempotencyKey !== undefined) {
        const existing = byKey.get(job.idempotencyKey);
        if (existing !== undefined) return { created: false, job: copy(byId.get(existing)!) };
        byKey.set(job.idempotencyKey, job.id);
      }
      byId.set(job.id, copy(job));
      return { created: true, job: copy(job) };
    },
    async get(id) {
      const job = byId.get(id);
      return job ? copy(job) : null;
    },
    async findByIdempotencyKey(key) {
      const id = byKey.get(key);
      return id === undefined ? null : copy(byId.get(id)!);
    },
    async update(id, update) {
      const job = byId.get(id);
      if (!job) return null;
      const next = mergeJobUpdate(job, structuredClone(update), now().toISOString());
      byId.set(id, next);
      return copy(next);
    },
    async countActive() {
      let count = 0;
      for (const job of byId.values()) if (!isFinished(job.status)) count++;
      return count;
    },
  };
}
