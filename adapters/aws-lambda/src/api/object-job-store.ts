import { createHash } from 'node:crypto';
import { mergeJobUpdate, type JobStore, type RenderJob } from '@seekframe/render-api';
import type { StoragePort } from '@seekframe/producer/storage-port';
import { getJson, isRenderId, putJson, renderKeys } from '@seekframe/producer/distributed';

/**
 * The render API's job records in the bucket, next to the render's own objects
 * (`renders/<id>/job.json`): the API function keeps nothing between invocations, so everything a
 * status request or a retry needs is read back from here. `create` is a conditional write (S3
 * If-None-Match), so two starts of one id make one job. An Idempotency-Key names its job by id
 * (`idempotentRenderId`, the API's `newId`), so finding it is one read, no index to keep. No
 * `countActive`: Lambda scales per render, the account's concurrency is the limit.
 */
export function createObjectJobStore(store: StoragePort): JobStore {
  const get = async (id: string): Promise<RenderJob | null> => (isRenderId(id) ? getJson<RenderJob>(store, renderKeys(id).job) : null);
  return {
    async create(job) {
      const { created } = await putJson(store, renderKeys(job.id).job, job, { ifNoneMatch: '*' });
      return created ? { created, job } : { created, job: (await get(job.id)) ?? job };
    },
    get,
    async findByIdempotencyKey(key) {
      const job = await get(idempotentRenderId(key));
      return job?.idempotencyKey === key ? job : null;
    },
    async update(id, update) {
      const job = await get(id);
      if (!job) return null;
      const next = mergeJobUpdate(job, update, new Date().toISOString());
      if (next !== job) await putJson(store, renderKeys(id).job, next);
      return next;
    },
  };
}

/** The render id an Idempotency-Key names: `key-` and 32 hex of its SHA-256 (a valid S3 key part and execution name). */
export function idempotentRenderId(key: string): string {
  return `key-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}
