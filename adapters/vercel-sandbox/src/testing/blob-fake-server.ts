import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that speaks the HTTP API the real `@vercel/blob` client calls (selected with
 * `VERCEL_BLOB_API_URL`), for tests and local runs. Blob contents are served by the same server
 * under /store/<pathname> (Range supported), so `head(x).url` can be fetched like a real blob URL.
 * Only what Seekframe uses: put (with overwrite / ifMatch rules), head, list, delete, multipart.
 */

interface StoredBlob {
  pathname: string;
  body: Buffer;
  contentType: string;
  access: 'public' | 'private';
  etag: string;
  uploadedAt: Date;
  cacheControlMaxAge: number;
}

interface PendingUpload {
  pathname: string;
  parts: Map<number, Buffer>;
}

export interface BlobFake {
  /** Value for VERCEL_BLOB_API_URL. */
  apiUrl: string;
  /** A read-write token for this store (`vercel_blob_rw_<store>_<secret>`). */
  token: string;
  storeId: string;
  /** Pathnames stored now (a test's view of the store). */
  pathnames(): string[];
  /** Every API call as `METHOD action`, e.g. `PUT put`, `POST mpu:complete` (for assertions). */
  calls: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const apiError = (res: ServerResponse, status: number, code: string, message: string): void =>
  json(res, status, { error: { code, message } });

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const etagOf = (body: Buffer): string => `"${createHash('md5').update(body).digest('hex')}"`;

export async function startBlobFake(options: { storeId?: string } = {}): Promise<BlobFake> {
  const storeId = options.storeId ?? `fake${randomBytes(4).toString('hex')}`;
  const token = `vercel_blob_rw_${storeId}_${randomBytes(12).toString('hex')}`;
  const blobs = new Map<string, StoredBlob>();
  const uploads = new Map<string, PendingUpload>();
  const calls: string[] = [];
  let origin = '';

  const blobUrl = (pathname: string): string => `${origin}/store/${pathname.split('/').map(encodeURIComponent).join('/')}`;
  const describe = (blob: StoredBlob) => ({
    url: blobUrl(blob.pathname),
    downloadUrl: `${blobUrl(blob.pathname)}?download=1`,
    pathname: blob.pathname,
    size: blob.body.length,
    contentType: blob.contentType,
    contentDisposition: `attachment; filename="${blob.pathname.split('/').pop()}"`,
    cacheControl: `public, max-age=${blob.cacheControlMaxAge}`,
    uploadedAt: blob.uploadedAt.toISOString(),
    etag: blob.etag,
  });
  /** `url` params may be a full blob URL of this store or a bare pathname. */
  const toPathname = (urlOrPathname: string): string => {
    if (!/^https?:\/\//.test(urlOrPathname)) return urlOrPathname;
    const url = new URL(urlOrPathname);
    return decodeURIComponent(url.pathname.replace(/^\/store\//, ''));
  };

  /** Shared by a plain put and a multipart complete: overwrite and ifMatch rules, random suffix. */
  const store = (req: IncomingMessage, res: ServerResponse, pathname: string, body: Buffer): void => {
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    let finalPath = pathname;
    if (header('x-add-random-suffix') === '1') {
      const dot = pathname.lastIndexOf('.');
      const suffix = randomBytes(10).toString('base64url').replace(/[-_]/g, 'x');
      finalPath = dot > pathname.lastIndexOf('/') ? `${pathname.slice(0, dot)}-${suffix}${pathname.slice(dot)}` : `${pathname}-${suffix}`;
    }
    const existing = blobs.get(finalPath);
    const ifMatch = header('x-if-match');
    if (ifMatch !== undefined && existing?.etag !== ifMatch) {
      apiError(res, 412, 'precondition_failed', 'The blob was modified since (ETag mismatch).');
      return;
    }
    if (existing && header('x-allow-overwrite') !== '1') {
      apiError(
        res,
        400,
        'bad_request',
        'This blob already exists, use `allowOverwrite: true` if you want to overwrite it. Or `addRandomSuffix: true` to generate a unique filename.',
      );
      return;
    }
    const access = header('x-vercel-blob-access') === 'private' ? 'private' : 'public';
    const blob: StoredBlob = {
      pathname: finalPath,
      body,
      contentType: header('x-content-type') ?? 'application/octet-stream',
      access,
      etag: etagOf(body),
      uploadedAt: new Date(),
      cacheControlMaxAge: Number(header('x-cache-control-max-age') ?? 2_592_000),
    };
    blobs.set(finalPath, blob);
    const { size: _size, uploadedAt: _at, cacheControl: _cc, ...result } = describe(blob);
    json(res, 200, result);
  };

  const authorized = (req: IncomingMessage): boolean => req.headers.authorization === `Bearer ${token}`;

  const serveContent = (req: IncomingMessage, res: ServerResponse, pathname: string): void => {
    const blob = blobs.get(pathname);
    if (!blob) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('The requested blob does not exist');
      return;
    }
    if (blob.access === 'private' && !authorized(req)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden');
      return;
    }
    const size = blob.body.length;
    const base = {
      'content-type': blob.contentType,
      etag: blob.etag,
      'accept-ranges': 'bytes',
      'last-modified': blob.uploadedAt.toUTCString(),
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] !== '' || range[2] !== '')) {
      const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (start >= size || start > end) {
        res.writeHead(416, { ...base, 'content-range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { ...base, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` });
      res.end(req.method === 'HEAD' ? undefined : blob.body.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { ...base, 'content-length': size });
    res.end(req.method === 'HEAD' ? undefined : blob.body);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (!authorized(req)) {
      apiError(res, 403, 'forbidden', 'Access denied, please provide a valid token for this resource.');
      return;
    }
    const route = url.pathname.replace(/^\/api/, '') || '/';
    const params = url.searchParams;
    if (req.method === 'PUT' && route === '/' && params.has('pathname')) {
      calls.push('PUT put');
      store(req, res, params.get('pathname') ?? '', await readBody(req));
      return;
    }
    if (req.method === 'GET' && route === '/' && params.has('url')) {
      calls.push('GET head');
      const blob = blobs.get(toPathname(params.get('url') ?? ''));
      if (!blob) apiError(res, 404, 'not_found', 'The requested blob does not exist');
      else json(res, 200, describe(blob));
      return;
    }
    if (req.method === 'GET' && route === '/') {
      calls.push('GET list');
      const prefix = params.get('prefix') ?? '';
      const limit = Math.min(Number(params.get('limit') ?? 1000), 1000);
      const offset = Number(params.get('cursor') ?? 0);
      const matching = [...blobs.values()]
        .filter((b) => b.pathname.startsWith(prefix))
        .sort((a, b) => a.pathname.localeCompare(b.pathname));
      const page = matching.slice(offset, offset + limit);
      const hasMore = offset + limit < matching.length;
      json(res, 200, {
        blobs: page.map((b) => {
          const d = describe(b);
          return { url: d.url, downloadUrl: d.downloadUrl, pathname: d.pathname, size: d.size, uploadedAt: d.uploadedAt, etag: d.etag };
        }),
        cursor: hasMore ? String(offset + limit) : undefined,
        hasMore,
      });
      return;
    }
    if (req.method === 'POST' && route === '/delete') {
      calls.push('POST delete');
      const { urls } = JSON.parse((await readBody(req)).toString('utf8')) as { urls: string[] };
      const ifMatch = req.headers['x-if-match'];
      for (const u of urls) {
        const pathname = toPathname(u);
        if (typeof ifMatch === 'string' && blobs.get(pathname)?.etag !== ifMatch) {
          apiError(res, 412, 'precondition_failed', 'The blob was modified since (ETag mismatch).');
          return;
        }
        blobs.delete(pathname);
      }
      json(res, 200, {});
      return;
    }
    if (req.method === 'POST' && route === '/mpu') {
      const action = req.headers['x-mpu-action'];
      calls.push(`POST mpu:${String(action)}`);
      const pathname = params.get('pathname') ?? '';
      if (action === 'create') {
        const uploadId = randomBytes(8).toString('hex');
        uploads.set(uploadId, { pathname, parts: new Map() });
        json(res, 200, { uploadId, key: `key-${uploadId}` });
        return;
      }
      const upload = uploads.get(String(req.headers['x-mpu-upload-id']));
      if (!upload) {
        apiError(res, 404, 'not_found', 'Unknown multipart upload');
        return;
      }
      if (action === 'upload') {
        const body = await readBody(req);
        upload.parts.set(Number(req.headers['x-mpu-part-number']), body);
        json(res, 200, { etag: etagOf(body) });
        return;
      }
      if (action === 'complete') {
        // The client lists parts in the order they finished, not by number: sort, as the real service does.
        const parts = JSON.parse((await readBody(req)).toString('utf8')) as { partNumber: number; etag: string }[];
        const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
        const missing = ordered.find((p) => !upload.parts.has(p.partNumber));
        if (missing) {
          apiError(res, 400, 'bad_request', `Part ${missing.partNumber} was never uploaded`);
          return;
        }
        uploads.delete(String(req.headers['x-mpu-upload-id']));
        store(req, res, upload.pathname, Buffer.concat(ordered.map((p) => upload.parts.get(p.partNumber) as Buffer)));
        return;
      }
    }
    apiError(res, 400, 'bad_request', `The blob fake does not know ${req.method} ${route}`);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const work = url.pathname.startsWith('/store/')
      ? Promise.resolve(serveContent(req, res, decodeURIComponent(url.pathname.slice('/store/'.length))))
      : handleApi(req, res, url);
    work.catch((error: unknown) => {
      if (!res.headersSent) apiError(res, 500, 'internal_server_error', error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api`,
    token,
    storeId,
    calls,
    pathnames: () => [...blobs.keys()].sort(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
