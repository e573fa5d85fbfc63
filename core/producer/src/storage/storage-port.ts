/**
 * Where finished files live, as one small port: put/get/head/delete/url. One port, so the server,
 * the render jobs and every deploy template store outputs the same way whatever the backend. The local
 * folder implementation is in core (local-folder-storage.ts); a deploy template fills the same
 * shape with Blob, R2, S3 or a volume. It is structurally the `ObjectStore` of
 * adapters/render-api (src/ports.ts), so a template can pass the core one straight through.
 */

export interface StorageObjectInfo {
  key: string;
  /** Bytes of the whole object (also for a ranged get). */
  size: number;
  contentType?: string;
  etag?: string;
  /** ISO date string or Date. */
  uploadedAt: string | Date;
}

/** Inclusive byte range; `end` absent = to the end of the object. */
export interface ByteRange {
  start: number;
  end?: number;
}

export type StorageBody = ReadableStream<Uint8Array> | Uint8Array | ArrayBuffer | string;

export interface StoragePutOptions {
  contentType?: string;
  /** `'*'` = create only: resolves `{created:false}` and leaves the object alone when the key exists. */
  ifNoneMatch?: '*';
}

export interface StoragePort {
  /** Stores `body` under `key`; readers see the old object or the whole new one, never a part. */
  put(key: string, body: StorageBody, options?: StoragePutOptions): Promise<{ created: boolean }>;
  /** null when the key does not exist. With a range, `body` holds only those bytes. */
  get(key: string, range?: ByteRange): Promise<{ body: ReadableStream<Uint8Array>; info: StorageObjectInfo } | null>;
  head(key: string): Promise<StorageObjectInfo | null>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** A URL clients can fetch directly, or null when the host must serve the object itself. */
  url(key: string): string | null | Promise<string | null>;
}
