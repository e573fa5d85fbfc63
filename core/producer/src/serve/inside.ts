import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The one rule for turning an untrusted path (from a URL, a request body, a manifest, an archive)
 * into a file under a folder. Every route that maps a request to a file goes through `inside`.
 */

/**
 * The real path of `untrusted` (relative to `root`, or absolute) when it lies inside the real path
 * of `root`; null otherwise. Checked twice: lexically (a `..` that leaves the folder is refused
 * before the disk is asked), then with symlinks resolved (a link inside the folder that leads
 * out is refused). For a path that does not exist, its nearest existing folder is resolved and
 * the rest appended, so a missing file behind a link that leads out is refused like an existing
 * one, and the answer never tells a caller what exists outside the folder.
 */
export async function inside(root: string, untrusted: string): Promise<string | null> {
  const candidate = insideLexically(root, untrusted);
  if (candidate === null) return null;
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) return null;
  let existing = candidate;
  const rest: string[] = [];
  for (;;) {
    const real = await realpath(existing).catch(() => undefined);
    if (real !== undefined) {
      const full = path.join(real, ...rest);
      return isWithin(realRoot, full) ? full : null;
    }
    const parent = path.dirname(existing);
    if (parent === existing) return null;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

/**
 * `untrusted` resolved against `root` when it stays inside it by its letters alone, else null.
 * Only for folders whose links are trusted (a local render of the user's own project) or that do
 * not exist yet (an inline document's future folder); anything untrusted on disk uses `inside`.
 */
export function insideLexically(root: string, untrusted: string): string | null {
  if (untrusted.includes('\0')) return null;
  const base = path.resolve(root);
  const candidate = path.resolve(base, untrusted);
  return isWithin(base, candidate) ? candidate : null;
}

/** True when `candidate` is `folder` or below it (both absolute and normalised). */
function isWithin(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
