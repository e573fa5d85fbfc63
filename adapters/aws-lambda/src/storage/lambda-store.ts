import { getText } from '@seekframe/producer';
import type { StoragePort, StoragePutOptions } from '@seekframe/producer/storage-port';

/**
 * The storage the Lambda handlers work on: the one storage port (core/producer's StoragePort)
 * with `list`, which the handlers need to find a render's progress and error records. S3 fills
 * it in production (s3-object-store.ts); the local runner and the benchmark use the producer's
 * local folder storage. Keys come from layout.ts.
 */
export type LambdaStore = StoragePort & { list: NonNullable<StoragePort['list']> };

export async function getJson<T>(store: StoragePort, key: string): Promise<T | null> {
  const text = await getText(store, key);
  return text === null ? null : (JSON.parse(text) as T);
}

export function putJson(
  store: StoragePort,
  key: string,
  value: unknown,
  options: Omit<StoragePutOptions, 'contentType'> = {},
): Promise<{ created: boolean }> {
  return store.put(key, JSON.stringify(value), { contentType: 'application/json', ...options });
}

/** Every key under the prefix, sorted (all pages). */
export async function listKeys(store: LambdaStore, prefix: string): Promise<string[]> {
  return (await store.list(prefix)).map((object) => object.key).sort();
}

/** The object's URL (S3: presigned), or its key where the store has no URL (a local folder). */
export async function urlOf(store: StoragePort, key: string): Promise<string> {
  return (await store.url(key)) ?? key;
}
