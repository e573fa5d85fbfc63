import { storedRenderName } from '@seekframe/composition';

/**
 * `GET|HEAD /r/<key>`: a stored render straight from R2, with Range (206/416) and conditional
 * requests handled by R2 itself (it parses the request's Range and If-* headers).
 * Only `renders/<name>` keys are served, checked by the key rule the output store uses
 * (`storedRenderName`: no `..`, `.`, separators, control characters or dot names).
 */
export async function serveR2Object(bucket: R2Bucket, key: string, request: Request): Promise<Response> {
  const name = storedRenderName(key);
  if (name === null) return notFound(key);
  const head = await bucket.head(key);
  if (!head) return notFound(key);
  const headers = new Headers({ 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=3600' });
  head.writeHttpMetadata(headers);
  headers.set('etag', head.httpEtag);
  headers.set('content-disposition', `inline; filename="${name.replace(/["]/g, '')}"`);
  const rangeHeader = request.headers.get('range');
  const range = rangeHeader ? parseRange(rangeHeader, head.size) : null;
  if (range === 'unsatisfiable') {
    headers.set('content-range', `bytes */${head.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (request.method === 'HEAD') {
    headers.set('content-length', String(head.size));
    return new Response(null, { status: 200, headers });
  }
  const object = await bucket.get(key, range ? { range: { offset: range.start, length: range.end - range.start + 1 } } : {});
  if (!object) return notFound(key);
  if (!range) {
    headers.set('content-length', String(object.size));
    return new Response(object.body, { status: 200, headers });
  }
  headers.set('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
  headers.set('content-length', String(range.end - range.start + 1));
  return new Response(object.body, { status: 206, headers });
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; a multi-part or malformed header is ignored (RFC 9110). */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

function notFound(key: string): Response {
  return Response.json(
    { error: { code: 'not-found', message: `No stored render at ${key}; it may have expired, or the URL is wrong.`, retryable: false } },
    { status: 404 },
  );
}
