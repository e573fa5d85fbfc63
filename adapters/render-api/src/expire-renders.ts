import type { ObjectStore } from './ports.js';

/**
 * Deletes every stored render (`renders/...`) uploaded more than `retentionMs` before `now`; the
 * answer to past-retention files on stores with no lifecycle rule of their own (a local folder,
 * Vercel Blob). Needs the store's optional `list`; without it, nothing is deleted. Failures to
 * delete one object are skipped (the next sweep tries again). Returns the keys deleted.
 */
export async function expireRenders(objects: ObjectStore, retentionMs: number, now: number): Promise<string[]> {
  if (!objects.list) return [];
  const deleted: string[] = [];
  for (const object of await objects.list('renders/')) {
    if (new Date(object.uploadedAt).getTime() + retentionMs > now) continue;
    try {
      await objects.delete(object.key);
      deleted.push(object.key);
    } catch {
      // left for the next sweep
    }
  }
  return deleted;
}

/**
 * Renders past retention are deleted from stores with no lifecycle rule of their own (a local
 * folder, Vercel Blob: `objects.list`): the sweeper this returns is called on new renders and
 * sweeps at most once per retention period or minute, in the background (`waitUntil` where the
 * platform needs it). The first status request after a job's expiry deletes its file too.
 */
export function createExpirySweeper(
  objects: ObjectStore,
  retentionMs: number,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
): (at: number) => void {
  let lastSweep = Number.NEGATIVE_INFINITY;
  return (at) => {
    if (!objects.list || at - lastSweep < Math.min(retentionMs, 60_000)) return;
    lastSweep = at;
    const sweep = expireRenders(objects, retentionMs, at).catch(() => []);
    waitUntil?.(sweep);
  };
}
