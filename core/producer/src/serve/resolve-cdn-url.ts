import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * npm CDN URLs (`https://cdn.jsdelivr.net/npm/<pkg>@<ver>/<path>`, `https://unpkg.com/<pkg>@<ver>/<path>`)
 * are served from the same package installed locally, so renders work offline and never depend
 * on a CDN's uptime. A package matches when its major version equals the requested one (or no
 * version was asked for); anything else is left to the network.
 */

export interface CdnReference {
  pkg: string;
  /** Requested version or range, e.g. `3.12.5`, `3`, `latest`; undefined when absent. */
  version: string | undefined;
  /** Path inside the package, '' when the URL names the package only. */
  file: string;
}

const CDN_PREFIXES = ['https://cdn.jsdelivr.net/npm/', 'https://unpkg.com/'];

export function parseCdnUrl(url: string): CdnReference | null {
  const prefix = CDN_PREFIXES.find((p) => url.startsWith(p));
  if (!prefix) return null;
  const rest = decodeURIComponent(url.slice(prefix.length).split(/[?#]/)[0] ?? '');
  const match = /^((?:@[^/@]+\/)?[^/@]+)(?:@([^/]+))?(?:\/(.*))?$/.exec(rest);
  if (!match) return null;
  return { pkg: match[1]!, version: match[2] || undefined, file: match[3] ?? '' };
}

/** Folders whose node_modules are searched: the project's ancestors first, then Seekframe's own. */
export function packageSearchRoots(projectDir: string): string[] {
  const ownDir = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(projectDir), ownDir];
}

/** The local file a CDN URL stands for, or null when no matching package is installed. */
export async function resolveCdnUrl(url: string, searchRoots: readonly string[]): Promise<string | null> {
  const ref = parseCdnUrl(url);
  if (!ref) return null;
  const packageDir = await findPackageDir(ref.pkg, searchRoots);
  if (!packageDir) return null;
  const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  if (!versionMatches(ref.version, String(manifest.version ?? ''))) return null;
  const relative = ref.file || defaultEntry(manifest);
  if (!relative) return null;
  const file = path.resolve(packageDir, relative);
  // A crafted path must not read outside the package.
  if (!file.startsWith(packageDir + path.sep)) return null;
  return (await isFile(file)) ? file : null;
}

/** The folder of `pkg` in the first search root (or its ancestors) that has it installed. */
export async function findPackageDir(pkg: string, searchRoots: readonly string[]): Promise<string | null> {
  for (const root of searchRoots) {
    let dir = root;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', pkg);
      if (await isFile(path.join(candidate, 'package.json'))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return null;
}

function versionMatches(requested: string | undefined, installed: string): boolean {
  if (!requested || requested === 'latest') return true;
  const wanted = /^[\^~]?(\d+)/.exec(requested);
  const have = /^(\d+)/.exec(installed);
  return Boolean(wanted && have && wanted[1] === have[1]);
}

/** The file a CDN serves for a bare package URL: its browser-oriented fields first. */
function defaultEntry(manifest: Record<string, unknown>): string | null {
  for (const field of ['jsdelivr', 'unpkg', 'browser', 'main']) {
    const value = manifest[field];
    if (typeof value === 'string' && value) return value;
  }
  return 'index.js';
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
