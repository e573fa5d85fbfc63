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
