/**
 * Tiny POSIX path helpers (no `node:path`: this package runs in browsers too).
 */

/** Collapses `.`, `..` and repeated slashes; keeps a leading `/`. `..` above a relative start is kept. */
export function normalizePosixPath(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part === '..' && absolute) continue;
    else out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined || '.';
}

export function dirnamePosix(path: string): string {
  const i = path.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : path.slice(0, i);
}

/**
 * Resolves `src` as written in `fromFile` (e.g. a `data-composition-src`). A leading `/` means the
 * project root, i.e. `rootDir` (the entry file's folder). Query strings and fragments are dropped.
 */
export function resolveSourcePath(fromFile: string, src: string, rootDir = '.'): string {
  const clean = src.replace(/[?#].*$/, '');
  if (clean.startsWith('/')) return normalizePosixPath(`${rootDir}/${clean}`);
  return normalizePosixPath(`${dirnamePosix(fromFile)}/${clean}`);
}

/**
 * `path` relative to the folder `root` (both normalised the same way), for messages: a project
 * file is named from the project's folder (`parts/intro.html`, `../outside.html`), never by the
 * absolute path it has on the machine that lints it.
 */
export function relativePosixPath(root: string, path: string): string {
  const from = normalizePosixPath(root)
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  const to = normalizePosixPath(path)
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  if (normalizePosixPath(root).startsWith('/') !== normalizePosixPath(path).startsWith('/')) return normalizePosixPath(path);
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/') || '.';
}

/** True for `http:`, `https:`, `data:` and protocol-relative URLs, which are not project files. */
export function isRemoteUrl(src: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(src);
}
