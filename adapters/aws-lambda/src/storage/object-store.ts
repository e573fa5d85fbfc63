import type { Readable } from 'node:stream';

/**
 * The storage port of the Lambda handlers: one bucket, keys from layout.ts. S3 fills it in
 * production (s3-object-store.ts); tests fill it with the same S3 code against a local server.
 */
export interface ObjectStore {
  /** `ifNoneMatch: '*'` writes only when the key is absent; `created: false` means it existed. */
  put(key: string, body: string | Uint8Array, options?: PutOptions): Promise<{ created: boolean }>;
  /** Streams a local file up (multipart for big files). */
  putFile(key: string, file: string, contentType: string, options?: { shortLived?: boolean }): Promise<{ size: number }>;
  getText(key: string): Promise<string | null>;
  /** Downloads to a local file; false when the key does not exist. */
  getFile(key: string, file: string): Promise<boolean>;
  getStream(key: string): Promise<Readable | null>;
  head(key: string): Promise<{ size: number } | null>;
  /** Every key under the prefix (all pages). */
  list(prefix: string): Promise<string[]>;
  /** A time-limited GET URL. */
  presign(key: string, expiresInSeconds: number): Promise<string>;
}

export interface PutOptions {
  contentType?: string;
  ifNoneMatch?: '*';
  /** Tag it for the short lifecycle rule (chunks, progress). */
  shortLived?: boolean;
}

export async function getJson<T>(store: ObjectStore, key: string): Promise<T | null> {
  const text = await store.getText(key);
  return text === null ? null : (JSON.parse(text) as T);
}

export function putJson(store: ObjectStore, key: string, value: unknown, options: Omit<PutOptions, 'contentType'> = {}): Promise<{ created: boolean }> {
  return store.put(key, JSON.stringify(value), { contentType: 'application/json', ...options });
}
