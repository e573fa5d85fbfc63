import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import { fetchRemoteAsset, type RemoteAsset } from './fetch-remote-asset.js';
import { packageSearchRoots } from './resolve-cdn-url.js';
import { REMOTE_ROUTE } from './rewrite-remote-references.js';
import { inside, insideLexically } from './inside.js';
import { serveFile } from './serve-file.js';
import { FONT_ROUTE } from './fonts/font-face-css.js';
import { fontFilePath } from './fonts/font-packages.js';
import { injectNamedFonts } from './fonts/inject-named-fonts.js';
import { rewriteFontCss } from './fonts/rewrite-font-css.js';
import { ProblemLog } from './problem-log.js';

/** Turns an HTML file's text into the text the page receives (runtime injected). */
export type PrepareHtml = (html: string, context: { file: string; isEntry: boolean }) => string | Promise<string>;

export interface ProjectServerOptions {
  /** Project folder; nothing outside it is served. */
  root: string;
  /** Entry HTML, relative to root (e.g. `index.html`). */
  entry: string;
  /** Runtime injection for every HTML document (see `createRuntimeInjector`). */
  prepareHtml: PrepareHtml;
  /** Time limit for each remote asset that is not an installed npm package (default 15 s). */
  remoteTimeoutMs?: number;
  /** Remote assets only from public http(s) addresses (renders started by the producer server). */
  publicRemoteOnly?: boolean;
  /**
   * Serve only files whose real path (symlinks resolved) is inside the root: a symlink in the
   * project that leads elsewhere on the machine is refused and recorded (server renders).
   */
  confineToRoot?: boolean;
  /** Where missing files, failed remote assets and pending remote requests are recorded (default: a new log). */
  problems?: ProblemLog;
}

export interface ServeProblem {
  error: SeekframeError;
}

export interface ProjectServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly entryUrl: string;
  /** Serves an extra folder (e.g. extracted video frames) under `/__seekframe/mount/<name>/`; returns its URL prefix. */
  mount(name: string, dir: string): string;
  /** Answers a remote URL (npm CDN -> local package, else network); failures are recorded too. */
  fetchRemote(url: string, referrer?: string): Promise<RemoteAsset>;
  /** The render's problem log this server records into. */
  readonly problemLog: ProblemLog;
  /** Missing local files and failed remote assets seen so far, oldest first (problemLog.problems()). */
  problems(): SeekframeError[];
  /** Remote URLs the page asked for that have not been answered yet (for ready-timeout messages). */
  pendingRemote(): string[];
  /** Throws the first recorded problem. */
  assertNoProblems(): void;
  close(): Promise<void>;
}

/** Paths a browser asks for on its own; their absence breaks no frame. */
const IGNORED_MISSING = new Set(['/favicon.ico']);
const MOUNT_ROUTE = '/__seekframe/mount/';

/**
 * A loopback static server for one project: every HTML document gets the runtime injected, paths
 * outside the root are refused (403), missing files are answered 404 and recorded so the render
 * fails with a message naming the file and the document that asked for it.
 */
export async function createProjectServer(options: ProjectServerOptions): Promise<ProjectServer> {
  const root = path.resolve(options.root);
  const entryFile = path.resolve(root, options.entry);
  const searchRoots = packageSearchRoots(root);
  const remoteTimeoutMs = options.remoteTimeoutMs ?? 15_000;
  const mounts = new Map<string, string>();
  const log = options.problems ?? new ProblemLog();
  const record = (error: SeekframeError): void => log.record(error);
  // Closing the server ends its downloads: a remote server that never answers would otherwise keep
  // the render's process alive for the whole remote time limit after the render stopped.
  const closed = new AbortController();

  const fetchRemote = async (url: string, referrer?: string): Promise<RemoteAsset> => {
    const answered = log.remoteStarted(url);
    try {
      return await fetchRemoteAsset(url, { timeoutMs: remoteTimeoutMs, searchRoots, referrer, publicOnly: options.publicRemoteOnly ?? false, signal: closed.signal });
    } catch (error) {
      if (error instanceof SeekframeError) record(error);
      throw error;
    } finally {
      answered();
    }
  };

  const app = new Hono();
  app.get(REMOTE_ROUTE, async (c) => {
    const url = c.req.query('url');
    if (!url || !/^https?:\/\//.test(url)) return c.text('url must be an http(s) URL', 400);
    try {
      const asset = await fetchRemote(url, c.req.header('referer'));
      return new Response(new Uint8Array(asset.body), { status: 200, headers: { 'content-type': asset.contentType } });
    } catch (error) {
      return c.text(error instanceof Error ? error.message : String(error), 502);
    }
  });
  // @fontsource woff2 files, for Google Fonts stylesheets and families named in CSS (see fonts/).
  app.get(`${FONT_ROUTE}:pkg/:file`, async (c) => {
    const font = await fontFilePath(c.req.param('pkg'), c.req.param('file'), searchRoots);
    if (!font) return c.text('font not installed', 404);
    // A package may bring a file that is a symlink to something else on the server: only files
    // really inside the package folder are fonts.
    const file = await inside(font.packageDir, font.file);
    if (!file) return c.text('forbidden: outside the font package', 403);
    const info = await stat(file);
    return serveFile(file, info.size, c.req.header('range'));
  });
  app.all('*', async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('method not allowed', 405);
    // The raw request path: URL parsing would quietly fold `/../x` into `/x`, hiding an attempt
    // to leave the root that deserves a 403.
    const raw = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? new URL(c.req.url).pathname;
    const urlPath = safeDecode(raw.split(/[?#]/)[0] ?? '/');
    if (urlPath === null) return c.text('bad path', 400);
    const base = baseFor(urlPath, mounts, root);
    if (!base) return c.text('not found', 404);
    const file = insideLexically(base.dir, '.' + path.posix.sep + base.rest);
    if (file === null) return c.text('forbidden: outside the project folder', 403);
    // The lexical check above cannot see symlinks; the real path must stay inside too. Checked
    // before existence, so a missing file behind a symlink out answers like an existing one.
    if (options.confineToRoot && (await inside(base.dir, file)) === null) {
      record(symlinkOutside(root, file, c.req.header('referer'), origin));
      return c.text('forbidden: outside the project folder', 403);
    }
    const info = await stat(file).catch(() => null);
    const target = info?.isDirectory() ? path.join(file, 'index.html') : file;
    const targetInfo = info?.isDirectory() ? await stat(target).catch(() => null) : info;
    // A folder's index.html may itself be a symlink out.
    if (options.confineToRoot && target !== file && (await inside(base.dir, target)) === null) {
      record(symlinkOutside(root, target, c.req.header('referer'), origin));
      return c.text('forbidden: outside the project folder', 403);
    }
    if (!targetInfo?.isFile()) {
      if (!IGNORED_MISSING.has(urlPath)) record(missingAsset(root, target, c.req.header('referer'), origin));
      return c.text('not found', 404);
    }
    if (target.toLowerCase().endsWith('.html') || target.toLowerCase().endsWith('.htm')) {
      let html: string;
      try {
        const text = await injectNamedFonts(await readFile(target, 'utf8'), { file: target, root, searchRoots, confineToRoot: options.confineToRoot === true });
        html = await options.prepareHtml(text, { file: target, isEntry: target === entryFile });
      } catch (error) {
        // An unusable child composition must fail the render with its own message, not a blank frame.
        record(toSeekframeError(error, { code: 'invalid-composition', stage: 'load' }));
        return c.text(error instanceof Error ? error.message : String(error), 500);
      }
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
    }
    if (target.toLowerCase().endsWith('.css')) {
      const css = await readFile(target, 'utf8');
      const rewritten = await rewriteFontCss(css, searchRoots);
      if (rewritten !== css) return new Response(rewritten, { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-store' } });
    }
    return serveFile(target, targetInfo.size, c.req.header('range'));
  });

  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const entryUrl = `${origin}/${path.relative(root, entryFile).split(path.sep).map(encodeURIComponent).join('/')}`;

  let closing: Promise<void> | undefined;
  return {
    origin,
    entryUrl,
    mount(name, dir) {
      if (!/^[\w-]+$/.test(name)) throw new Error(`mount name "${name}" must be letters, digits, - or _`);
      mounts.set(name, path.resolve(dir));
      return `${origin}${MOUNT_ROUTE}${name}/`;
    },
    fetchRemote,
    problemLog: log,
    problems: () => log.problems(),
    pendingRemote: () => log.pendingRemote(),
    assertNoProblems: () => log.assertNone(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        closed.abort(new Error('the project server closed'));
        // Keep-alive sockets from the browser would hold close() open; end them.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

function safeDecode(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

function baseFor(urlPath: string, mounts: Map<string, string>, root: string): { dir: string; rest: string } | null {
  if (!urlPath.startsWith(MOUNT_ROUTE)) return { dir: root, rest: urlPath };
  const [name, ...rest] = urlPath.slice(MOUNT_ROUTE.length).split('/');
  const dir = name ? mounts.get(name) : undefined;
  return dir ? { dir, rest: rest.join('/') } : null;
}

function symlinkOutside(root: string, file: string, referer: string | undefined, origin: string): SeekframeError {
  const relative = path.relative(root, file).split(path.sep).join('/');
  const from = referer?.startsWith(origin) ? safeDecode(new URL(referer).pathname)?.replace(/^\//, '') : undefined;
  return new SeekframeError(
    'path-outside-project',
    `${relative} leads outside the project folder through a symlink${from ? ` (referenced by ${from})` : ''}, and server renders serve only files inside it. ` +
      'Copy the file into the project instead of linking to it.',
    { stage: 'serve', details: { file: relative, ...(from ? { referencedBy: from } : {}) } },
  );
}

function missingAsset(root: string, file: string, referer: string | undefined, origin: string): SeekframeError {
  const relative = path.relative(root, file) || file;
  const from = referer?.startsWith(origin) ? safeDecode(new URL(referer).pathname)?.replace(/^\//, '') : referer;
  return new SeekframeError(
    'asset-not-found',
    `${relative} does not exist in the project folder${from ? ` (referenced by ${from})` : ''}. ` +
      'A missing asset silently breaks frames: add the file or fix the reference.',
    { stage: 'serve', details: { file: relative, ...(from ? { referencedBy: from } : {}) } },
  );
}
