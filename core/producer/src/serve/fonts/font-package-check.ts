import { packageSearchRoots } from '../resolve-cdn-url.js';
import { findFontPackage } from './font-packages.js';

/**
 * The `fontPackageInstalled` of a `LintHost` for a project on disk: true when `@fontsource/<id>`
 * resolves the way the project server resolves it (the project's folders first, then the renderer's).
 */
export function fontPackageCheck(projectDir: string): (id: string) => Promise<boolean> {
  const searchRoots = packageSearchRoots(projectDir);
  return async (id) => (await findFontPackage(id, searchRoots)) !== null;
}
