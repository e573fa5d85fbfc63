import { stat } from 'node:fs/promises';
import { relativePathProblem } from '@seekframe/composition';
import { inside } from '@seekframe/producer';
import { isWatchedPath } from '../watch-project.js';

/**
 * The one rule for a composition file named in a studio request (`?file=`, a write, a render of
 * a sub-composition): a relative path of plain names ending in `.html`/`.htm` that exists inside
 * the project folder (symlinks resolved). Its real path, or why not.
 */
export async function projectHtmlFile(root: string, file: string): Promise<{ path: string } | { problem: string }> {
  const problem = relativePathProblem(file);
  if (problem) return { problem };
  if (!/\.html?$/i.test(file)) return { problem: 'is not an HTML file' };
  // The project's own files, not its dependencies or tool folders (the preview does not watch them either).
  if (!isWatchedPath(file)) return { problem: 'is in node_modules, renders or a dot folder' };
  const abs = await inside(root, file);
  if (!abs) return { problem: 'is outside the project folder' };
  const info = await stat(abs).catch(() => null);
  return info?.isFile() ? { path: abs } : { problem: 'does not exist in the project' };
}
