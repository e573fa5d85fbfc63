import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { FileSource } from '../ports.js';

/**
 * Files of one folder by relative path. The real path (symlinks resolved) must stay inside the
 * folder, so a link in a composition cannot publish other files of the machine.
 */
export function folderSource(root: string): FileSource {
  const realRoot = realpath(root);
  return {
    async read(relative) {
      const base = await realRoot;
      const candidate = path.resolve(base, ...relative.split('/'));
      const real = await realpath(candidate).catch(() => null);
      if (!real || (real !== base && !real.startsWith(base + path.sep))) return null;
      const body = await readFile(real).catch(() => null);
      return body ? { body: new Uint8Array(body) } : null;
    },
  };
}
