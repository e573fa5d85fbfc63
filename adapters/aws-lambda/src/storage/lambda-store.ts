import type { DistributedStore } from '@seekframe/producer/distributed';
import type { StoragePort } from '@seekframe/producer/storage-port';

/**
 * The storage the Lambda handlers work on: the core's DistributedStore (the storage port with
 * `list`). S3 fills it in production (@seekframe/s3-storage); the local runner and the benchmark
 * use the producer's local folder storage. Keys come from the core's renderKeys.
 */
export type LambdaStore = DistributedStore;

/** The object's URL (S3: presigned), or its key where the store has no URL (a local folder). */
export async function urlOf(store: StoragePort, key: string): Promise<string> {
  return (await store.url(key)) ?? key;
}
