import type { JobStore, RenderJob } from '@seekframe/render-api';
import type { RenderJobObject } from './render-job-object.js';

/**
 * The render API's job store on the `RenderJobObject` namespace: the record of job <id> lives in
 * the object named `job:<id>`, an Idempotency-Key's claim in the object named `idem:<sha>`.
 * There is no `countActive`: on Cloudflare the cap on renders at once is `max_instances` of the
 * container, and a job that finds no instance is refused with `too-many-renders` (429).
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

export function createDurableJobStore(namespace: DurableObjectNamespace): JobStore {
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
      return (await jobObject(namespace, job.id).createJob(job)) as { created: boolean; job: RenderJob };
    },
    get,
    async findByIdempotencyKey(key) {
      const holder = await (await keyObject(namespace, key)).claimedJobId();
      return holder === null ? null : get(holder);
    },
    async update(id, update) {
      return (await jobObject(namespace, id).updateJob(update)) as RenderJob | null;
    },
  };
}
