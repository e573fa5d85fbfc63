import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { contentTypeOf } from './content-type-of.js';

/**
 * Streams a file as a web Response, honouring a single `Range: bytes=a-b` request. Media elements
 * ask for ranges to read metadata and to seek; answering them keeps `<video>`/`<audio>` seekable.
 */
export function serveFile(file: string, size: number, rangeHeader: string | undefined): Response {
  const headers = new Headers({
    'content-type': contentTypeOf(file),
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
  });
  const range = rangeHeader ? parseRange(rangeHeader, size) : null;
  if (rangeHeader && !range) {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  headers.set('content-length', String(Math.max(0, end - start + 1)));
  if (range) headers.set('content-range', `bytes ${start}-${end}/${size}`);
  const body = size === 0 ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `size`; null when unsatisfiable or malformed. */
export function parseRange(header: string, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // Suffix range: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}
