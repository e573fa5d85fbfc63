import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseStorageKey } from '@seekframe/composition';
import type { ObjectStore } from './object-store.js';

/**
 * The bucket as a local folder: the local fan-out runner and the simulated benchmark use it so
 * their timings are the render's, not a storage server's. Writes are atomic (temp file, rename);
 * If-None-Match is an exclusive create. Keys must stay inside the folder.
 */
export function createFolderObjectStore(root: string): ObjectStore {
  const base = path.resolve(root);
  // The output store's key rule (no `..`, `.`, absolute, backslash, control characters, dot names).
  const file = (key: string): string => path.join(base, ...parseStorageKey(key));
  let counter = 0;
  const atomicWrite = async (target: string, write: (temp: string) => Promise<void>): Promise<void> => {
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}-${counter++}.partial`;
    await write(temp);
    await rename(temp, target);
  };
  return {
    async put(key, body, options = {}) {
      const target = file(key);
      if (options.ifNoneMatch) {
        await mkdir(path.dirname(target), { recursive: true });
        try {
          await writeFile(target, body, { flag: 'wx' });
          return { created: true };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
          throw error;
        }
      }
      await atomicWrite(target, (temp) => writeFile(temp, body));
      return { created: true };
    },
    async putFile(key, source) {
      await atomicWrite(file(key), (temp) => copyFile(source, temp));
      return { size: (await stat(source)).size };
    },
    async getText(key) {
      return readFile(file(key), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
    },
    async getFile(key, target) {
      try {
        await copyFile(file(key), target);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
    async getStream(key) {
      const source = file(key);
      return (await stat(source).catch(() => null)) ? createReadStream(source) : null;
    },
    async head(key) {
      const s = await stat(file(key)).catch(() => null);
      return s?.isFile() ? { size: s.size } : null;
    },
    async list(prefix) {
      // Walk from the prefix's folder part; keys are files only, compared as strings like S3 does.
      const folder = path.dirname(file(`${prefix}x`));
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(base, path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name)).split(path.sep).join('/'))
        .filter((key) => key.startsWith(prefix) && !key.endsWith('.partial'))
        .sort();
    },
    async presign(key) {
      return pathToFileURL(file(key)).href;
    },
  };
}
