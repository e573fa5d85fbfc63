import type { JobStore, RenderJob } from '@seekframe/render-api';
import { activeJobsObject, type RenderJobObject } from './render-job-object.js';

/**
 * The render API's job store on the `RenderJobObject` namespace: the record of job <id> lives in
 * the object named `job:<id>`, an Idempotency-Key's claim in the object named `idem:<sha>`.
 * `countActive` asks the object named `active-jobs`, so RENDER_MAX_CONCURRENT (keep it equal to
 * the container's `max_instances`) answers 429 before a job is even created; a job that still
 * finds no instance is refused by the runner with `too-many-renders` too.
 */
export function jobObject(namespace: DurableObjectNamespace, id: string): DurableObjectStub<RenderJobObject> {
  return namespace.get(namespace.idFromName(`job:${id}`)) as DurableObjectStub<RenderJobObject>;
}

async function keyObject(namespace: DurableObjectNamespace, key: string): Promise<DurableObjectStub<RenderJobObject>> {
  // Hashed: a key is client text of up to 255 characters; the object's name needs none of it.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  const hex = [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return namespace.get(namespace.idFromName(`idem:${hex}`)) as DurableObjectStub<RenderJobObject>;
}

export interface DurableJobStoreOptions {
  /** A job whose object never reports its end stops counting as active after this long
   *  (RENDER_MAX_SECONDS plus the container's start and upload). Default 20 minutes. */
  staleAfterMs?: number;
}

export function createDurableJobStore(namespace: DurableObjectNamespace, options: DurableJobStoreOptions = {}): JobStore {
  const staleAfterMs = options.staleAfterMs ?? 20 * 60_000;
  const get = async (id: string): Promise<RenderJob | null> => (await jobObject(namespace, id).getJob()) as RenderJob | null;
  return {
    async create(job) {
      if (job.idempotencyKey !== undefined) {
        const holder = await (await keyObject(namespace, job.idempotencyKey)).claimKey(job.id);
        if (holder !== job.id) {
          const existing = await get(holder);
          if (existing) return { created: false, job: existing };
        }
      }
      const stored = (await jobObject(namespace, job.id).createJob(job)) as { created: boolean; job: RenderJob };
      if (stored.created) await activeJobsObject(namespace).track(job.id, Date.now() + staleAfterMs);
      return stored;
    },
    get,
    async findByIdempotencyKey(key) {
      const holder = await (await keyObject(namespace, key)).claimedJobId();
      return holder === null ? null : get(holder);
    },
    async update(id, update) {
      return (await jobObject(namespace, id).updateJob(update)) as RenderJob | null;
    },
    async countActive() {
      return activeJobsObject(namespace).countActive();
    },
  };
}
