import type { ByteRange, ObjectBody, ObjectInfo, ObjectStore } from '@seekframe/render-api';
import { BlobStorage, type BlobStorageOptions } from './blob-storage.js';

/**
 * The render-api object store on Vercel Blob. A public store hands clients the blob URL itself
 * (`url()`), so the MP4 never passes through a function; a private store answers null and the
 * API streams it (with Range) through `get()`.
 */
export function createBlobObjectStore(options: BlobStorageOptions): ObjectStore {
  const storage = new BlobStorage(options);
  const toInfo = (key: string, info: { size: number; contentType: string; etag: string }, uploadedAt: Date): ObjectInfo => ({
    key,
    size: info.size,
    contentType: info.contentType,
    etag: info.etag,
    uploadedAt,
  });
  return {
    async put(key: string, body: ObjectBody, opts?: { contentType?: string; ifNoneMatch?: '*' }) {
      const data = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
      const result = await storage.put(key, data, {
        contentType: opts?.contentType ?? 'application/octet-stream',
        overwrite: opts?.ifNoneMatch !== '*',
        // Streams of unknown length go up in parts; small buffers in one request.
        multipart: data instanceof ReadableStream || (typeof data !== 'string' && data.byteLength > 8 * 1024 * 1024),
      });
      return { created: result.created };
    },
    async get(key: string, range?: ByteRange) {
      const found = await storage.read(key, range);
      if (!found?.response.body) return null;
      return { body: found.response.body as ReadableStream<Uint8Array>, info: toInfo(key, found.info, uploadedAtOf(found.response)) };
    },
    async head(key: string) {
      const info = await storage.head(key);
      return info ? toInfo(key, info, new Date()) : null;
    },
    delete: (key: string) => storage.delete(key),
    // Blob has no lifecycle rule: the render API deletes renders past retention from this list.
    async list(prefix: string) {
      return (await storage.listWithDates(prefix)).map((blob) => ({ key: blob.pathname, uploadedAt: blob.uploadedAt }));
    },
    async url(key: string) {
      if (options.access === 'private') return null;
      return (await storage.head(key))?.url ?? null;
    },
  };
}

const uploadedAtOf = (response: Response): Date => {
  const header = response.headers.get('last-modified');
  return header ? new Date(header) : new Date();
};
