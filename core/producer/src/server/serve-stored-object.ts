import { parseRange } from '../serve/serve-file.js';
import type { StorageObjectInfo, StoragePort } from '../storage/storage-port.js';

/**
 * A stored object as a web Response, honouring one `Range: bytes=a-b` (206, or 416 when it
 * cannot be met), so players can seek a finished video straight from the store.
 */
export async function serveStoredObject(
  storage: StoragePort,
  info: StorageObjectInfo,
  rangeHeader: string | undefined,
): Promise<Response | null> {
  const headers = new Headers({
    'content-type': info.contentType ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
  });
  if (info.etag) headers.set('etag', info.etag);
  const range = rangeHeader ? parseRange(rangeHeader, info.size) : null;
  if (rangeHeader && !range) {
    headers.set('content-range', `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  const found = await storage.get(info.key, range ?? undefined);
  // Deleted between the lookup and the read.
  if (!found) return null;
  const start = range?.start ?? 0;
  const end = range?.end ?? found.info.size - 1;
  headers.set('content-length', String(Math.max(0, end - start + 1)));
  if (range) headers.set('content-range', `bytes ${start}-${end}/${found.info.size}`);
  return new Response(found.info.size === 0 ? null : found.body, { status: range ? 206 : 200, headers });
}
