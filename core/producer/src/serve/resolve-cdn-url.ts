import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeekframeError } from '@seekframe/composition';
import { inside } from './inside.js';
import { isNpmPackageName } from './npm-package-name.js';

/**
 * npm CDN URLs (`https://cdn.jsdelivr.net/npm/<pkg>@<ver>/<path>`, `https://unpkg.com/<pkg>@<ver>/<path>`)
 * are served from the same package installed locally, so renders work offline and never depend
 * on a CDN's uptime. A package matches when its major version equals the requested one (or no
 * version was asked for); anything else is left to the network.
 *
 * The URL comes from the page, so it is untrusted: the package name must be one npm accepts
 * (never `.`, `..` or `@scope/..`, which would name the folder holding `node_modules` or one
 * above), and the file must really be inside that package's folder, symlinks resolved.
 */

export interface CdnReference {
  pkg: string;
  /** Requested version or range, e.g. `3.12.5`, `3`, `latest`; undefined when absent. */
  version: string | undefined;
  /** Path inside the package, '' when the URL names the package only. */
  file: string;
}

/** npm CDN hosts and the path prefix their package URLs start with. */
const CDN_PREFIXES: Record<string, string> = { 'cdn.jsdelivr.net': '/npm/', 'unpkg.com': '/' };

/**
 * The package, version and file an npm CDN URL names; null when the URL is not one (other hosts,
 * other jsDelivr routes). A CDN URL that cannot name a published package or a plain file inside
 * one (`..@1/x`, `%2e%2e`, `@scope/..`, an encoded `/` or `\`, a control character, a `.` or `..`
 * segment) throws `remote-asset-failed`: it is refused outright, neither read from disk nor fetched.
 */
export function parseCdnUrl(url: string): CdnReference | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const prefix = parsed.protocol === 'https:' ? CDN_PREFIXES[parsed.hostname] : undefined;
  if (prefix === undefined || !parsed.pathname.startsWith(prefix)) return null;
  const refuse = (why: string): never => {
    throw cdnUrlRefused(url, why);
  };
  // Split before decoding: an encoded "/" (%2f) must not become a separator.
  const segments = parsed.pathname
    .slice(prefix.length)
    .split('/')
    .map((raw) => {
      try {
        return decodeURIComponent(raw);
      } catch {
        return refuse('its path is not valid percent-encoding');
      }
    });
  if (segments[0] === '') return null;
  const scoped = segments[0]!.startsWith('@');
  const nameParts = segments.splice(0, scoped ? 2 : 1);
  const last = nameParts.pop() ?? '';
  const at = last.indexOf('@');
  const name = [...nameParts, at === -1 ? last : last.slice(0, at)].join('/');
  const version = at === -1 ? undefined : last.slice(at + 1) || undefined;
  if (!isNpmPackageName(name)) refuse(`${JSON.stringify(name)} is not an npm package name`);
  for (const segment of segments) {
    // eslint-disable-next-line no-control-regex
    if (segment === '.' || segment === '..' || /[\\/\u0000-\u001f\u007f]/.test(segment)) {
      refuse(`its file path has a ${JSON.stringify(segment)} part (no ".", "..", separators or control characters inside a package)`);
    }
  }
  return { pkg: name, version, file: segments.filter((s) => s !== '').join('/') };
}

/** Folders whose node_modules are searched: the project's ancestors first, then Seekframe's own. */
export function packageSearchRoots(projectDir: string): string[] {
  const ownDir = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(projectDir), ownDir];
}

/**
 * The local file a CDN URL stands for, or null when no matching package is installed (the caller
 * may then fetch it). Throws `remote-asset-failed` for a URL `parseCdnUrl` refuses and for a file
 * whose real path leaves the package folder (a symlink, or a manifest entry with `..`).
 */
export async function resolveCdnUrl(url: string, searchRoots: readonly string[]): Promise<string | null> {
  const ref = parseCdnUrl(url);
  if (!ref) return null;
  const packageDir = await findPackageDir(ref.pkg, searchRoots);
  if (!packageDir) return null;
  const manifestFile = await inside(packageDir, 'package.json');
  if (!manifestFile) throw cdnUrlRefused(url, `the package.json of ${ref.pkg} leads outside its folder`);
  const manifest = await readManifest(manifestFile);
  if (!manifest || !versionMatches(ref.version, String(manifest.version ?? ''))) return null;
  const relative = ref.file || defaultEntry(manifest);
  if (!relative) return null;
  const file = await inside(packageDir, relative);
  if (!file) throw cdnUrlRefused(url, `the file it names leads outside the folder of ${ref.pkg}`);
  // A hidden file or folder (`.env`, `.config/`, `.npmrc`) is never part of what a page loads, and
  // a workspace package linked into node_modules keeps its secrets there: not read from disk.
  // Judged on real paths (`file` is one): pnpm's and workspaces' packages are links.
  const realPackage = await realpath(packageDir);
  if (
    path
      .relative(realPackage, file)
      .split(path.sep)
      .some((segment) => segment.startsWith('.'))
  )
    return null;
  return (await isFile(file)) ? file : null;
}

/**
 * The folder of `pkg` in the first search root (or its ancestors) that has it installed: always
 * `<folder>/node_modules/<pkg>`, because a name that is not an npm package name is never looked up.
 */
export async function findPackageDir(pkg: string, searchRoots: readonly string[]): Promise<string | null> {
  if (!isNpmPackageName(pkg)) return null;
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

function cdnUrlRefused(url: string, why: string): SeekframeError {
  return new SeekframeError(
    'remote-asset-failed',
    `Refused ${url}: ${why}. npm CDN URLs are answered from installed packages and may name only a published package and a file inside it; fix the URL.`,
    { stage: 'serve', retryable: false, details: { url } },
  );
}

/** The manifest, or null when it is not JSON (its text never reaches an error message). */
export async function readManifest(file: string): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function versionMatches(requested: string | undefined, installed: string): boolean {
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
