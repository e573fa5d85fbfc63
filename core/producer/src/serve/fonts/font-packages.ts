import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { findPackageDir } from '../resolve-cdn-url.js';
import type { FontFaces, FontFile } from './font-faces.js';

export type { FontFile } from './font-faces.js';

/** An installed package: its faces and the folder they are in. */
export interface FontPackage extends FontFaces {
  dir: string;
}

const cache = new Map<string, Promise<FontPackage | null>>();

/**
 * The installed `@fontsource/<id>` package: the project's own first (its folder and ancestors),
 * then the renderer's dependencies. Read once per folder; a miss is not cached, so a package
 * installed while `seekframe preview` runs is found on the next reload.
 */
export async function findFontPackage(id: string, searchRoots: readonly string[]): Promise<FontPackage | null> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) return null;
  const dir = await findPackageDir(`@fontsource/${id}`, searchRoots);
  if (!dir) return null;
  let loaded = cache.get(dir);
  if (!loaded) {
    loaded = readFontPackage(id, dir).catch(() => null);
    cache.set(dir, loaded);
  }
  return loaded;
}

/**
 * `files/<name>` of `@fontsource/<id>` (relative, POSIX) and the package folder it must stay in,
 * or null when it is not a woff2 file the installed package lists. The caller resolves it with
 * `inside(packageDir, file)`: a file of the package may still be a symlink that leads out.
 */
export async function fontFilePath(
  id: string,
  name: string,
  searchRoots: readonly string[],
): Promise<{ packageDir: string; file: string } | null> {
  const pkg = await findFontPackage(id, searchRoots);
  if (!pkg || !pkg.files.some((f) => f.name === name)) return null;
  return { packageDir: pkg.dir, file: `files/${name}` };
}

async function readFontPackage(id: string, dir: string): Promise<FontPackage | null> {
  const metadata = JSON.parse(await readFile(path.join(dir, 'metadata.json'), 'utf8')) as {
    family?: string;
    subsets?: string[];
    weights?: number[];
    styles?: string[];
  };
  // CJK packages key numbered slices as "[0]" and name their files "<id>-0-400-normal.woff2".
  const ranges = (await readFile(path.join(dir, 'unicode.json'), 'utf8').then(JSON.parse, () => ({}))) as Record<string, string>;
  const subsets = Object.keys(ranges).length > 0 ? Object.keys(ranges) : (metadata.subsets ?? []);
  const present = new Set(await readdir(path.join(dir, 'files')));
  const files: FontFile[] = [];
  for (const subset of subsets) {
    const segment = subset.replace(/^\[(\d+)\]$/, '$1');
    for (const weight of metadata.weights ?? []) {
      for (const style of metadata.styles ?? []) {
        if (style !== 'normal' && style !== 'italic') continue;
        const name = `${id}-${segment}-${weight}-${style}.woff2`;
        if (!present.has(name)) continue;
        const unicodeRange = ranges[subset];
        files.push({ weight, style, subset: segment, name, ...(unicodeRange ? { unicodeRange } : {}) });
      }
    }
  }
  if (files.length === 0 || !metadata.family) return null;
  return { id, family: metadata.family, dir, files };
}
