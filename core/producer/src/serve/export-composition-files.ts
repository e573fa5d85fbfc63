import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
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

export interface ExportedComposition {
  manifest: ExportedFilesManifest;
  /** Bytes of every stored file. */
  bytes: number;
  /** Remote URLs the pages reference that have no local copy here (the viewer's browser loads them). */
  notLocal: string[];
  /** Names of the installed npm packages the composition uses (node_modules/ paths, npm CDN URLs), sorted. */
  packages: string[];
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
  // Confined like a template's live preview: a symlink in the folder that leads out of it is not
  // copied into a deployment anyone can read.
  const host = observePackages(createNodeCompositionHost({ root, network: 'none', confineToRoot: true }), used);
  const files = createCompositionFiles({
    host,
    entry: options.entry ?? 'index.html',
    base,
    prepareHtml: createRuntimeInjector({ runtimeSource: options.runtimeSource ?? loadRuntimeSource, mode: 'preview' }),
  });
  const outDir = options.outDir;
  if (outDir) await rm(outDir, { recursive: true, force: true });
  const manifest: ExportedFilesManifest = { version: 1, base, files: {}, remote: {}, redirect: [] };
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
  const missing = [...new Set(notLocal)].sort();
  manifest.redirect = missing;
  if (outDir) await writeFile(path.join(outDir, 'manifest.json'), JSON.stringify(manifest));
  return { manifest, bytes, notLocal: missing, packages: packageNames(used) };
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

/** The packages the installed files belong to (`…/node_modules/<name>/…` or `…/node_modules/@scope/<name>/…`). */
function packageNames(used: Set<string>): string[] {
  const names = new Set<string>();
  for (const file of used) {
    const parts = file.split(path.sep);
    const at = parts.lastIndexOf('node_modules');
    if (at < 0 || at + 2 >= parts.length) continue;
    names.add(parts[at + 1]!.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]!);
  }
  return [...names].sort();
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

const EXTENSIONS: Record<string, string> = {
  'text/css': '.css',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'font/woff2': '.woff2',
  'font/woff': '.woff',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/svg+xml': '.svg',
  'application/json': '.json',
};

/** A file extension for a stored remote answer, so a static file store guesses the same type. */
function extensionFor(type: string, url: string): string {
  const known = EXTENSIONS[type.split(';')[0]!.trim().toLowerCase()];
  if (known) return known;
  const fromUrl = /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname)?.[1];
  return fromUrl ? `.${fromUrl.toLowerCase()}` : '';
}
