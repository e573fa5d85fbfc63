import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { readProjectFile } from './read-project-file.js';

/**
 * The error for a path that leaves the project folder: it names the path relative to the project
 * (never an absolute server path) and is the same whether or not the file exists, so a page
 * cannot use it to learn what is on the machine.
 */
export function pathOutsideProject(root: string, file: string, what = 'file'): SeekframeError {
  const shown = path.relative(root, file).split(path.sep).join('/');
  return new SeekframeError(
    'path-outside-project',
    `The ${what} ${shown} is outside the project folder, and server renders read only files inside it (no "..", no symlinks that lead out). Copy the file into the project and reference it there.`,
    { stage: 'lint', details: { file: shown } },
  );
}

/** True when `candidate` is `root` or below it. */
export function isInsideFolder(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * `file`'s real path, when it stays inside `root`'s real path, else null. For a path that does
 * not exist, the nearest existing folder above it is resolved instead: a missing file below a
 * symlink that leads out is refused like an existing one, so the answer never tells a page
 * whether something exists outside the project.
 */
export async function realPathWithin(root: string, file: string): Promise<string | null> {
  const realRoot = await realpath(root);
  let existing = path.resolve(file);
  const rest: string[] = [];
  for (;;) {
    const real = await realpath(existing).catch(() => undefined);
    if (real !== undefined) {
      const full = path.join(real, ...rest);
      return isInsideFolder(realRoot, full) ? full : null;
    }
    const parent = path.dirname(existing);
    if (parent === existing) return null;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

/**
 * `readProjectFile` confined to `root` for untrusted projects (server renders, inline html): a
 * path outside the folder, lexically or through a symlink, is refused before anything is read,
 * the same way whether or not it exists.
 */
export function readInsideProject(root: string): (file: string) => Promise<string | undefined> {
  const absoluteRoot = path.resolve(root);
  return async (file) => {
    const absolute = path.resolve(absoluteRoot, file);
    const real = isInsideFolder(absoluteRoot, absolute) ? await realPathWithin(absoluteRoot, absolute) : null;
    if (real === null) throw pathOutsideProject(absoluteRoot, absolute, 'sub-composition');
    return readProjectFile(real);
  };
}
