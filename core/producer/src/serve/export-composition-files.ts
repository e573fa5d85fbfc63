import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CompositionHost } from './composition-files/composition-host.js';
import { createCompositionFiles } from './composition-files/serve-composition-file.js';
import type { ExportedFile, ExportedFilesManifest } from './composition-files/serve-exported-files.js';
import { createRuntimeInjector, type RuntimeInjectorOptions } from './create-runtime-injector.js';
import { loadRuntimeSource } from './load-runtime-source.js';
import { createNodeCompositionHost } from './node-composition-host.js';

export interface ExportCompositionOptions {
  /** The composition folder. */
  root: string;
  /** Where the prepared files and `manifest.json` go (emptied first); absent: nothing is written (to learn `packages`). */
  outDir?: string;
  /** The base the host will serve them under (the URLs written into the pages carry it). */
  base: string;
  /** Default `index.html`. */
  entry?: string;
  /** Default `@seekframe/runtime/bundle`. */
  runtimeSource?: RuntimeInjectorOptions['runtimeSource'];
}

/** A file of an installed npm package the composition uses, and where it goes in a vendored copy. */
export interface PackageFile {
  /** The installed file. */
  file: string;
  /** `node_modules/<package>/<path inside it>`. */
  vendored: string;
}

export interface ExportedComposition {
  manifest: ExportedFilesManifest;
  /** Bytes of every stored file. */
  bytes: number;
  /** Remote URLs the pages reference that have no local copy here (the viewer's browser loads them). */
  notLocal: string[];
  /** Installed npm package files the composition uses (and their package.json files). */
  packages: PackageFile[];
}

/** Folders of a composition that are not part of what renders. */
const SKIPPED = new Set(['node_modules', 'test', 'renders']);

/**
 * Runs the composition files rule over a composition at build time, for a template whose host
 * has no `node_modules` at run time (the Cloudflare Worker, the Modal app): every file of the
 * folder, then every URL the prepared pages and stylesheets reference under the base (the npm
 * files, Google Fonts stylesheets, `@fontsource` faces, CDN files from installed packages),
 * each answer stored in `outDir` with a manifest that createExportedFiles serves. A URL that only
 * a script builds at run time is not seen; a remote one is then loaded by the viewer's browser.
 */
export async function exportCompositionFiles(options: ExportCompositionOptions): Promise<ExportedComposition> {
  const root = path.resolve(options.root);
  const base = options.base.endsWith('/') ? options.base : `${options.base}/`;
  const used = new Set<string>();
  const host = observePackages(createNodeCompositionHost({ root, network: 'none' }), used);
  const files = createCompositionFiles({ host, entry: options.entry ?? 'index.html', base, prepareHtml: createRuntimeInjector({ runtimeSource: options.runtimeSource ?? loadRuntimeSource, mode: 'preview' }) });
  const outDir = options.outDir;
  if (outDir) await rm(outDir, { recursive: true, force: true });
  const manifest: ExportedFilesManifest = { version: 1, base, files: {}, remote: {} };
  const notLocal: string[] = [];
  let bytes = 0;
  const origin = 'http://composition.invalid';
  const queue: string[] = (await listFiles(root)).map((file) => base + file.split('/').map(encodeURIComponent).join('/'));
  const seen = new Set(queue);
  while (queue.length > 0) {
    const target = queue.shift()!;
    const url = new URL(target, origin);
    const remote = url.pathname === files.routes.remote ? url.searchParams.get('url') : null;
    const response = await files(new Request(url), url.pathname);
    if (response.status !== 200) {
      if (remote) notLocal.push(remote);
      continue;
    }
    const body = new Uint8Array(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    const key = remote ?? decodeURIComponent(url.pathname.slice(base.length));
    const stored: ExportedFile = { file: remote ? `remote/${hash(remote)}${extensionFor(type, remote)}` : `files/${key}`, type };
    if (outDir) {
      const destination = path.join(outDir, ...stored.file.split('/'));
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, body);
    }
    bytes += body.byteLength;
    (remote ? manifest.remote : manifest.files)[key] = stored;
    if (!/^text\/(html|css)\b/i.test(type)) continue;
    for (const reference of references(new TextDecoder().decode(body))) {
      let next: URL;
      try {
        next = new URL(reference, url);
      } catch {
        continue;
      }
      if (next.origin !== origin || !next.pathname.startsWith(base)) continue;
      // Font files lead nowhere else: a crawl that stores nothing (for `packages`) skips them.
      if (!outDir && next.pathname.startsWith(files.routes.fonts)) continue;
      const request = next.pathname === files.routes.remote ? `${next.pathname}${next.search}` : next.pathname;
      if (seen.has(request)) continue;
      seen.add(request);
      queue.push(request);
    }
  }
  if (outDir) await writeFile(path.join(outDir, 'manifest.json'), JSON.stringify(manifest));
  return { manifest, bytes, notLocal: [...new Set(notLocal)].sort(), packages: await packageFiles(used) };
}

/**
 * Copies the npm package files a composition uses (and each package's package.json) into
 * `<dir>/node_modules/`, so a copy of the composition renders where those packages are not
 * installed (a container image, a sandbox): the render finds them in the composition's own folder.
 */
export async function vendorPackageFiles(packages: readonly PackageFile[], dir: string): Promise<void> {
  for (const { file, vendored } of packages) {
    const destination = path.join(dir, ...vendored.split('/'));
    await mkdir(path.dirname(destination), { recursive: true });
    await copyFile(file, destination);
  }
}

/** The host, noting every installed package file it answers with. */
function observePackages(host: CompositionHost, used: Set<string>): CompositionHost {
  return {
    ...host,
    async packageFile(url) {
      const found = await host.packageFile(url);
      if (found?.file) used.add(found.file);
      return found;
    },
  };
}

async function packageFiles(used: Set<string>): Promise<PackageFile[]> {
  const out = new Map<string, PackageFile>();
  for (const file of used) {
    const packageDir = packageRoot(file);
    if (!packageDir) continue;
    const name = packageDir.split(path.sep).slice(packageDir.split(path.sep).lastIndexOf('node_modules') + 1).join('/');
    for (const one of [path.join(packageDir, 'package.json'), file]) {
      const vendored = `node_modules/${name}/${path.relative(packageDir, one).split(path.sep).join('/')}`;
      out.set(vendored, { file: one, vendored });
    }
  }
  return [...out.values()].sort((a, b) => a.vendored.localeCompare(b.vendored));
}

/** The folder of the installed package `file` belongs to: `…/node_modules/<name>` or `…/node_modules/@scope/<name>`. */
function packageRoot(file: string): string | null {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return null;
  const length = parts[at + 1]!.startsWith('@') ? at + 3 : at + 2;
  const dir = parts.slice(0, length).join(path.sep);
  return existsSync(path.join(dir, 'package.json')) ? dir : null;
}

/** Every file of the composition folder that renders (relative POSIX paths): no tests, renders, node_modules or dot files. */
async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || (prefix === '' && SKIPPED.has(entry.name)) || entry.name === 'node_modules') continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, relative)));
    else if (entry.isFile()) out.push(relative);
  }
  return out.sort();
}

const REFERENCE = [
  /\b(?:src|href|poster|data-composition-src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi,
  /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']+))\s*\)/gi,
  /@import\s+(?:"([^"]*)"|'([^']*)')/gi,
];

/** The URLs a prepared page or stylesheet references (over-inclusive: a link that is no file just answers 404). */
function references(text: string): string[] {
  const out: string[] = [];
  for (const pattern of REFERENCE) {
    for (const match of text.matchAll(pattern)) {
      const value = (match[1] ?? match[2] ?? match[3] ?? '').trim().replace(/&amp;/g, '&');
      if (value && !/^(?:data|blob|about|javascript|mailto):/i.test(value) && !value.startsWith('#')) out.push(value);
    }
  }
  return out;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

const EXTENSIONS: Record<string, string> = { 'text/css': '.css', 'text/javascript': '.js', 'application/javascript': '.js', 'font/woff2': '.woff2', 'font/woff': '.woff', 'image/png': '.png', 'image/jpeg': '.jpg', 'image/svg+xml': '.svg', 'application/json': '.json' };

/** A file extension for a stored remote answer, so a static file store guesses the same type. */
function extensionFor(type: string, url: string): string {
  const known = EXTENSIONS[type.split(';')[0]!.trim().toLowerCase()];
  if (known) return known;
  const fromUrl = /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname)?.[1];
  return fromUrl ? `.${fromUrl.toLowerCase()}` : '';
}
