import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { inside } from './inside.js';
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

/**
 * `readProjectFile` confined to `root` for untrusted projects (server renders, inline html): a
 * path outside the folder, lexically or through a symlink, is refused before anything is read,
 * the same way whether or not it exists.
 */
export function readInsideProject(root: string): (file: string) => Promise<string | undefined> {
  const absoluteRoot = path.resolve(root);
  return async (file) => {
    const real = await inside(absoluteRoot, file);
    if (real === null) throw pathOutsideProject(absoluteRoot, path.resolve(absoluteRoot, file), 'sub-composition');
    return readProjectFile(real);
  };
}
