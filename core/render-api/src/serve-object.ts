import { apiError } from './api-error.js';
import type { ByteRange, ObjectStore } from './ports.js';

/**
 * Parses a single `Range: bytes=...` header against an object of `size` bytes. Returns null for
 * no (or an ignorable multi-part) header, 'unsatisfiable' when no byte of it exists.
 */
export function parseRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null; // multi-part or malformed ranges: answer the whole file (RFC 9110 allows ignoring)
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return 'unsatisfiable';
  return { start, end };
}

/** Answers a stored file with Range support, `Accept-Ranges`, and a download name. */
export async function serveObject(
  objects: ObjectStore,
  key: string,
  request: Request,
  options: { downloadName: string },
): Promise<Response> {
  const info = await objects.head(key);
  if (!info) {
    throw apiError('render-expired', `The stored file ${key} is gone (it expired or was removed); render again.`, { stage: 'output' });
  }
  const headers = new Headers({
    'accept-ranges': 'bytes',
    'content-type': info.contentType ?? 'application/octet-stream',
    'content-disposition': `inline; filename="${options.downloadName}"`,
    'cache-control': 'private, max-age=3600',
  });
  if (info.etag) headers.set('etag', info.etag);
  const range = parseRange(request.headers.get('range') ?? undefined, info.size);
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await objects.get(key, range ?? undefined);
  if (!object)
    throw apiError('render-expired', `The stored file ${key} is gone (it expired or was removed); render again.`, { stage: 'output' });
  if (request.method === 'HEAD') await object.body.cancel(); // nothing is sent; release the file
  if (range) {
    headers.set('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set('content-length', String(range.end - range.start + 1));
    return new Response(request.method === 'HEAD' ? null : object.body, { status: 206, headers });
  }
  headers.set('content-length', String(info.size));
  return new Response(request.method === 'HEAD' ? null : object.body, { status: 200, headers });
}
