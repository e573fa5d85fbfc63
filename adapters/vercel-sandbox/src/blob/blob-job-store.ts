import { createHash } from 'node:crypto';
import { isFinished, mergeJobUpdate, type JobStore, type JobUpdate, type RenderJob } from '@seekframe/render-api';
import { BlobStorage, isPreconditionFailed, type BlobStorageOptions } from './blob-storage.js';

/**
 * Render jobs as JSON objects in Vercel Blob (`jobs/<id>.json`), so any function instance can
 * answer a status request. Two writers (the render's progress and a DELETE) never lose each
 * other's fields: every update is a compare-and-swap on the blob's etag, retried on conflict.
 * An Idempotency-Key claims `idempotency/<sha256>.json` with a create-only put, so two concurrent
 * requests with one key make one job. Queued and running jobs also have a marker under
 * `active/` (removed when the job finishes), which is what `countActive` counts.
 */
export interface BlobJobStoreOptions extends BlobStorageOptions {
  /** Key prefix, default `jobs/`. */
  prefix?: string;
  /** A marker older than this belongs to a render whose function died: not counted. Default 30 min. */
  staleAfterMs?: number;
}

const MAX_CAS_ATTEMPTS = 8;

export function createBlobJobStore(options: BlobJobStoreOptions): JobStore {
  const storage = new BlobStorage({ token: options.token, access: options.access });
  const prefix = options.prefix ?? 'jobs/';
  const jobKey = (id: string): string => `${prefix}${encodeURIComponent(id)}.json`;
  const idemKey = (key: string): string => `${prefix}idempotency/${createHash('sha256').update(key).digest('hex')}.json`;
  const activeKey = (id: string): string => `${prefix}active/${encodeURIComponent(id)}`;
  const staleAfterMs = options.staleAfterMs ?? 30 * 60 * 1000;
  const json = { contentType: 'application/json' };

  const read = async (id: string) => storage.readJson<RenderJob>(jobKey(id));

  return {
    async create(job) {
      if (job.idempotencyKey !== undefined) {
        const claim = await storage.put(idemKey(job.idempotencyKey), JSON.stringify({ id: job.id }), { ...json, overwrite: false });
        if (!claim.created) {
          const owner = await storage.readJson<{ id: string }>(idemKey(job.idempotencyKey));
          // The first request may still be writing its job: wait for it briefly.
          for (let attempt = 0; owner && attempt < 20; attempt += 1) {
            const existing = await read(owner.value.id);
            if (existing) return { created: false, job: existing.value };
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      }
      await storage.put(jobKey(job.id), JSON.stringify(job), { ...json, overwrite: true });
      if (!isFinished(job.status)) await storage.put(activeKey(job.id), '{}', { ...json, overwrite: true });
      return { created: true, job };
    },
    async get(id) {
      return (await read(id))?.value ?? null;
    },
    async findByIdempotencyKey(key) {
      const owner = await storage.readJson<{ id: string }>(idemKey(key));
      return owner ? ((await read(owner.value.id))?.value ?? null) : null;
    },
    async update(id: string, update: JobUpdate) {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
        const current = await read(id);
        if (!current) return null;
        const next = mergeJobUpdate(current.value, update, new Date().toISOString());
        if (next === current.value) return next;
        try {
          await storage.put(jobKey(id), JSON.stringify(next), { ...json, overwrite: true, ifMatch: current.etag });
          if (isFinished(next.status)) await storage.delete(activeKey(id));
          return next;
        } catch (error) {
          if (!isPreconditionFailed(error)) throw error;
        }
      }
      throw new Error(`${jobKey(id)} kept changing under ${MAX_CAS_ATTEMPTS} updates in a row; try again.`);
    },
    async countActive() {
      const since = Date.now() - staleAfterMs;
      return (await storage.listWithDates(`${prefix}active/`)).filter((marker) => marker.uploadedAt.getTime() >= since).length;
    },
  };
}
