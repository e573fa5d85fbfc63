import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import type { CompositionHost, FetchedFile, ProjectFile } from './composition-files/composition-host.js';
import { contentTypeOf } from './content-type-of.js';
import { fetchNetworkAsset } from './fetch-network-asset.js';
import { fontFilePath, findFontPackage } from './fonts/font-packages.js';
import { ProblemLog } from './problem-log.js';
import { inside, insideLexically } from './inside.js';
import { missingCdnPackage, packageNotInstalled } from './missing-cdn-package.js';
import { packageSearchRoots, resolveCdnUrl } from './resolve-cdn-url.js';
import { serveFile } from './serve-file.js';

export interface NodeCompositionHostOptions {
  /** The composition folder; nothing outside it is served. */
  root: string;
  /**
   * Serve only files whose real path (symlinks resolved) is inside the root: a symlink in the
   * project that leads elsewhere on the machine is refused and recorded (untrusted renders).
   */
  confineToRoot?: boolean;
  /**
   * Remote URLs that are neither Google Fonts nor installed npm packages: fetched from the network
   * (`open`, the default; `public`: only public http(s) addresses, for untrusted renders) or not at
   * all (`none`: a preview that must show only what the machine has).
   */
  network?: 'open' | 'public' | 'none';
  /** Time limit for each network fetch (default 15 s). */
  remoteTimeoutMs?: number;
  /** Ends every network fetch early (the server closing). */
  signal?: AbortSignal;
  /** Where missing files, refused paths and failed remote assets are recorded (default: a new log). */
  problems?: ProblemLog;
  /** Folders whose node_modules are searched (default: the composition's folders upward, then Seekframe's own). */
  searchRoots?: readonly string[];
}

/** Paths a browser asks for on its own; their absence breaks no frame. */
const IGNORED_MISSING = new Set(['favicon.ico']);

/**
 * The composition's files on this machine, for the rule (composition-files/): the folder (every
 * path checked to stay inside it), installed npm packages and `@fontsource` packages in
 * `node_modules` (the composition's folders upward first, then Seekframe's own dependencies),
 * and the network. Used by the render's project server, `seekframe preview` and the deploy
 * templates that run on Node.
 */
export function createNodeCompositionHost(options: NodeCompositionHostOptions): CompositionHost & { readonly problems: ProblemLog } {
  const root = path.resolve(options.root);
  const searchRoots = options.searchRoots ?? packageSearchRoots(root);
  const log = options.problems ?? new ProblemLog();
  const confine = options.confineToRoot === true;
  const network = options.network ?? 'open';
  const referrerOf = (request: Request | undefined): string | undefined => {
    const referer = request?.headers.get('referer');
    if (!referer) return undefined;
    try {
      const url = new URL(referer);
      return url.origin === new URL(request!.url).origin ? (safeDecode(url.pathname)?.replace(/^\//, '') ?? referer) : referer;
    } catch {
      return referer;
    }
  };
  const forbidden = (): Response =>
    new Response('forbidden: outside the project folder', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });

  const host: CompositionHost & { readonly problems: ProblemLog } = {
    problems: log,
    async projectFile(relative, request) {
      const file = insideLexically(root, `.${path.posix.sep}${relative}`);
      if (file === null) return forbidden();
      // The lexical check cannot see symlinks; the real path must stay inside too. Checked before
      // existence, so a missing file behind a symlink out answers like an existing one.
      if (confine && (await inside(root, file)) === null) {
        if (request) log.record(symlinkOutside(root, file, referrerOf(request)));
        return forbidden();
      }
      const info = await stat(file).catch(() => null);
      const target = info?.isDirectory() ? path.join(file, 'index.html') : file;
      const targetInfo = info?.isDirectory() ? await stat(target).catch(() => null) : info;
      // A folder's index.html may itself be a symlink out.
      if (confine && target !== file && (await inside(root, target)) === null) {
        if (request) log.record(symlinkOutside(root, target, referrerOf(request)));
        return forbidden();
      }
      if (!targetInfo?.isFile()) return null;
      const size = targetInfo.size;
      const served: ProjectFile = {
        path: path.relative(root, target).split(path.sep).join('/'),
        text: () => readFile(target, 'utf8'),
        respond: (range) => serveFile(target, size, range),
      };
      return served;
    },
    async packageFile(url) {
      let file: string | null;
      try {
        file = await resolveCdnUrl(url, searchRoots);
      } catch (error) {
        // A CDN URL the resolver refuses (a package name like `..`) fails the render like any
        // remote asset that cannot load.
        if (error instanceof SeekframeError) log.record(error);
        throw error;
      }
      if (file) return { contentType: contentTypeOf(file), body: await readFile(file), file };
      // A render never fetches an npm CDN URL: a package that is not installed is one error, with
      // the install command (a preview without a network lets the viewer's browser load it).
      if (network === 'none') return null;
      const missing = await missingCdnPackage(url, searchRoots);
      if (!missing) return null;
      const error = packageNotInstalled(missing, url);
      log.record(error);
      throw error;
    },
    ...(network === 'none'
      ? {}
      : {
          async networkFile(url: string, referrer: string | undefined): Promise<FetchedFile> {
            const answered = log.remoteStarted(url);
            try {
              return await fetchNetworkAsset(url, {
                timeoutMs: options.remoteTimeoutMs ?? 15_000,
                referrer,
                publicOnly: network === 'public',
                ...(options.signal ? { signal: options.signal } : {}),
              });
            } catch (error) {
              if (error instanceof SeekframeError) log.record(error);
              throw error;
            } finally {
              answered();
            }
          },
        }),
    findFont: (id) => findFontPackage(id, searchRoots),
    async fontFile(id, name, request) {
      const font = await fontFilePath(id, name, searchRoots);
      if (!font) return null;
      // A package may bring a file that is a symlink to something else on the server: only files
      // really inside the package folder are fonts.
      const file = await inside(font.packageDir, font.file);
      if (!file) return new Response('forbidden: outside the font package', { status: 403 });
      const info = await stat(file);
      return serveFile(file, info.size, request.headers.get('range') ?? undefined);
    },
    reportMissing(relative, request) {
      if (IGNORED_MISSING.has(relative)) return;
      log.record(missingAsset(root, path.resolve(root, `.${path.sep}${relative}`), referrerOf(request)));
    },
    reportProblem: (error) => log.record(error),
  };
  return host;
}

function safeDecode(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

function symlinkOutside(root: string, file: string, from: string | undefined): SeekframeError {
  const relative = path.relative(root, file).split(path.sep).join('/');
  return new SeekframeError(
    'path-outside-project',
    `${relative} leads outside the project folder through a symlink${from ? ` (referenced by ${from})` : ''}, and server renders serve only files inside it. ` +
      'Copy the file into the project instead of linking to it.',
    { stage: 'serve', details: { file: relative, ...(from ? { referencedBy: from } : {}) } },
  );
}

function missingAsset(root: string, file: string, from: string | undefined): SeekframeError {
  const relative = path.relative(root, file) || file;
  return new SeekframeError(
    'asset-not-found',
    `${relative} does not exist in the project folder${from ? ` (referenced by ${from})` : ''}. ` +
      'A missing asset silently breaks frames: add the file or fix the reference.',
    { stage: 'serve', details: { file: relative, ...(from ? { referencedBy: from } : {}) } },
  );
}
