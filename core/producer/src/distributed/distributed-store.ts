import { getText } from '../storage/storage-files.js';
import type { StoragePort, StoragePutOptions } from '../storage/storage-port.js';

/**
 * The storage a distributed render works on: the one storage port (StoragePort) with `list`.
 * S3 fills it on Lambda and for a fleet on any S3-compatible service; a folder every machine
 * mounts (createLocalFolderStorage) fills it for a fleet on shared disk, the local runners and
 * the benchmarks. Keys come from render-keys.ts.
 */
export type DistributedStore = StoragePort & { list: NonNullable<StoragePort['list']> };

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
export async function listKeys(store: DistributedStore, prefix: string): Promise<string[]> {
  return (await store.list(prefix)).map((object) => object.key).sort();
}
