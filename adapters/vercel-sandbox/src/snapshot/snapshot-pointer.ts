import type { BlobStorage } from '../blob/blob-storage.js';

/**
 * The build step's record of the snapshot it made, stored in Blob at
 * `snapshot-cache/<VERCEL_DEPLOYMENT_ID>.json`: one snapshot per deployment, so a request always
 * restores the image built from its own code.
 */
export interface SnapshotPointer {
  snapshotId: string;
  createdAt: string;
  /** The image the snapshot was built from (pinned, e.g. `vercel/sandbox/universal`). */
  image: string;
  /** What the smoke render proved: its duration and output size. */
  smokeRender?: { durationMs: number; size: number };
}

export type PointerLookup = { pointer: SnapshotPointer } | { pointer: null; reason: string };

export const pointerKey = (deploymentId: string): string => `snapshot-cache/${deploymentId}.json`;

export async function readSnapshotPointer(storage: BlobStorage | null, deploymentId: string | undefined): Promise<PointerLookup> {
  if (!deploymentId) return { pointer: null, reason: 'VERCEL_DEPLOYMENT_ID is not set (a local run has no build-time snapshot)' };
  if (!storage) return { pointer: null, reason: 'BLOB_READ_WRITE_TOKEN is not set, so the snapshot pointer cannot be read' };
  try {
    const found = await storage.readJson<Partial<SnapshotPointer>>(pointerKey(deploymentId));
    if (!found)
      return {
        pointer: null,
        reason: `no ${pointerKey(deploymentId)} in Blob (the build step did not create a snapshot for this deployment)`,
      };
    if (typeof found.value.snapshotId !== 'string' || !found.value.snapshotId) {
      return { pointer: null, reason: `${pointerKey(deploymentId)} has no snapshotId` };
    }
    return { pointer: found.value as SnapshotPointer };
  } catch (error) {
    return {
      pointer: null,
      reason: `reading ${pointerKey(deploymentId)} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export async function writeSnapshotPointer(storage: BlobStorage, deploymentId: string, pointer: SnapshotPointer): Promise<void> {
  await storage.put(pointerKey(deploymentId), JSON.stringify(pointer, null, 2), { contentType: 'application/json', overwrite: true });
}
