/**
 * Where finished files live, as one small port: put/get/head/delete/url (+ list where a store has
 * no lifecycle rule of its own). Declared once, here: the producer server, the render jobs and
 * every deploy template store outputs through it whatever the backend (render-api's `ObjectStore`
 * is this type, imported as a type, so a Worker loads no Node code for it). The local folder
 * implementation is in core (local-folder-storage.ts); a deploy template fills the same shape
 * with Blob, R2, S3 or a volume. Types only in this file: it stays Worker-safe.
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
  /** A URL clients can fetch directly (Blob, public R2, a presigned S3 GET), or null when the
   *  host must serve the object itself. */
  url(key: string): string | null | Promise<string | null>;
  /**
   * The objects whose key starts with `prefix`: stores with no lifecycle rule of their own give
   * it, so renders past retention are deleted (render-api's `expireRenders`).
   */
  list?(prefix: string): Promise<Pick<StorageObjectInfo, 'key' | 'uploadedAt'>[]>;
}
