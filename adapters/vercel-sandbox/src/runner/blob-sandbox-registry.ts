import type { BlobStorage } from '../blob/blob-storage.js';
import type { SandboxRegistry } from './sandbox-runner.js';

/** Job id -> sandbox name in Blob (`sandboxes/<job id>.json`), readable from every function instance. */
export function blobSandboxRegistry(storage: BlobStorage): SandboxRegistry {
  const key = (jobId: string): string => `sandboxes/${encodeURIComponent(jobId)}.json`;
  return {
    async put(jobId, sandboxName) {
      await storage.put(key(jobId), JSON.stringify({ sandboxName }), { contentType: 'application/json', overwrite: true });
    },
    async get(jobId) {
      return (await storage.readJson<{ sandboxName?: string }>(key(jobId)))?.value.sandboxName ?? null;
    },
  };
}
