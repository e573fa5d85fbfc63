import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { SeekframeError } from '@seekframe/composition';
import type { ObjectBody, ObjectInfo, ObjectStore } from '../ports.js';
import { contentTypeOf } from '../preview-routes.js';

/** Keys are relative POSIX paths of plain segments: nothing can land outside the folder. */
function keyPath(root: string, key: string): string {
  const parts = key.split('/');
  if (key === '' || key.includes('\\') || key.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new SeekframeError('invalid-options', `Object key "${key}" is not a relative path of plain names; use keys like renders/<id>.mp4.`, { stage: 'output' });
  }
  return path.join(root, ...parts);
}

function toNodeStream(body: ObjectBody): Readable {
  if (typeof body === 'string' || body instanceof Uint8Array) return Readable.from([typeof body === 'string' ? Buffer.from(body) : Buffer.from(body)]);
  if (body instanceof ArrayBuffer) return Readable.from([Buffer.from(body)]);
  return Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
}

/**
 * An object store in a folder (the local twin of Blob/R2/a Modal volume). Writes go to a temp
 * file first and are published with link(), so a reader never sees half a file and
 * `ifNoneMatch: '*'` is atomic (link fails when the key exists).
 */
export function createFolderObjectStore(root: string): ObjectStore & { root: string; path(key: string): string } {
  const info = async (key: string): Promise<ObjectInfo | null> => {
    const file = keyPath(root, key);
    const stats = await stat(file).catch(() => null);
    if (!stats?.isFile()) return null;
    return { key, size: stats.size, contentType: contentTypeOf(key), etag: `"${stats.size.toString(16)}-${Math.round(stats.mtimeMs).toString(16)}"`, uploadedAt: stats.mtime.toISOString() };
  };
  return {
    root,
    path: (key) => keyPath(root, key),
    async put(key, body, options = {}) {
      const file = keyPath(root, key);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}-${crypto.randomUUID()}.partial`;
      try {
        if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer) {
          await writeFile(temp, typeof body === 'string' ? body : new Uint8Array(body));
        } else {
          await pipeline(toNodeStream(body), createWriteStream(temp));
        }
        if (options.ifNoneMatch === '*') {
          try {
            await link(temp, file);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
            throw error;
          }
        } else {
          await rm(file, { force: true });
          await link(temp, file);
        }
        return { created: true };
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    },
    async get(key, range) {
      const meta = await info(key);
      if (!meta) return null;
      const end = range ? Math.min(range.end ?? meta.size - 1, meta.size - 1) : undefined;
      const stream = createReadStream(keyPath(root, key), range ? { start: range.start, end } : {});
      return { body: Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>, info: meta };
    },
    head: info,
    async delete(key) {
      await rm(keyPath(root, key), { force: true });
    },
    url: () => null,
  };
}
