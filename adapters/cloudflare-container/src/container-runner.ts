import { SeekframeError } from '@seekframe/composition';
import type { RenderRunner } from '@seekframe/render-api';
import { jobObject } from './durable-job-store.js';
import type { StartAnswer } from './render-job-object.js';

/**
 * The render API's runner on Cloudflare: each job's Durable Object reserves the job's own
 * Container instance (or the local stand-in) and drives the render there, writing progress into
 * the job record and the file into R2. `start` answers once the renderer has accepted the job, so
 * the runner is `detached`: the API reads the job record to know when it is done. A job that finds
 * no free instance is refused with `too-many-renders` (the API answers 429 + Retry-After).
 */
export function createContainerRunner(namespace: DurableObjectNamespace): RenderRunner {
  return {
    async start(job) {
      // Errors lose their fields over RPC, so a refusal comes back as data.
      const answer = (await jobObject(namespace, job.id).start(job)) as StartAnswer;
      if (!answer.ok) throw SeekframeError.fromJSON(answer.error);
      return { kind: 'detached' };
    },
    async cancel(id) {
      await jobObject(namespace, id).cancel();
    },
  };
}
