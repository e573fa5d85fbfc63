import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { StoragePort, StoragePutOptions } from './storage-port.js';

/**
 * Node-only conveniences over any storage port (S3, a local folder, Blob): a local file up or
 * down, an object as text. Functions, not port methods, so a store written for a Worker never has
 * to implement them and the port stays the five verbs of storage-port.ts.
 */

/** Streams a local file up under `key` (the store decides how: S3 uploads it in parts). */
export async function putFile(
  port: StoragePort,
  key: string,
  file: string,
  options: StoragePutOptions = {},
): Promise<{ size: number; created: boolean }> {
  const { size } = await stat(file);
  const { created } = await port.put(key, Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, options);
  return { size, created };
}

/** Downloads `key` to a local file (written whole or not at all); false when the key does not exist. */
export async function getFile(port: StoragePort, key: string, file: string): Promise<boolean> {
  const object = await port.get(key);
  if (!object) return false;
  const partial = `${file}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  try {
    await pipeline(Readable.fromWeb(object.body as NodeReadableStream<Uint8Array>), out);
    await rename(partial, file);
  } catch (error) {
    // A download that breaks off at once can fail the pipeline while the file is still being
    // opened: the open then creates it after a removal made now. Remove it once the stream closed.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
  return true;
}

/** The object as UTF-8 text; null when the key does not exist. */
export async function getText(port: StoragePort, key: string): Promise<string | null> {
  const object = await port.get(key);
  return object ? new Response(object.body).text() : null;
}
