import { readFile } from 'node:fs/promises';
import { inside } from '@seekframe/producer/inside';
import type { FileSource } from '../ports.js';

/**
 * Files of one folder by relative path. The real path (symlinks resolved) must stay inside the
 * folder (`inside`), so a link in a composition cannot publish other files of the machine.
 */
export function folderSource(root: string): FileSource {
  return {
    async read(relative) {
      const real = await inside(root, relative);
      if (!real) return null;
      const body = await readFile(real).catch(() => null);
      return body ? { body: new Uint8Array(body) } : null;
    },
  };
}
