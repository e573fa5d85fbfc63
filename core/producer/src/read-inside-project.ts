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
 * `readProjectFile` confined to `root` for untrusted projects (server renders, inline html): a
 * path outside the folder, lexically or through a symlink, is refused before anything is read or
 * even checked for existence.
 */
export function readInsideProject(root: string): (file: string) => Promise<string | undefined> {
  const absoluteRoot = path.resolve(root);
  const realRoot = realpath(absoluteRoot);
  return async (file) => {
    const absolute = path.resolve(absoluteRoot, file);
    if (!isInsideFolder(absoluteRoot, absolute)) throw pathOutsideProject(absoluteRoot, absolute, 'sub-composition');
    // Resolve symlinks of the folders even when the file itself is missing (lint reports that).
    const real = await realpath(absolute).catch(async () => path.join(await realpath(path.dirname(absolute)).catch(() => path.dirname(absolute)), path.basename(absolute)));
    if (!isInsideFolder(await realRoot, real)) throw pathOutsideProject(absoluteRoot, absolute, 'sub-composition');
    return readProjectFile(real);
  };
}
