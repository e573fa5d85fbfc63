import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { SeekframeError } from '@seekframe/composition';
import { createCompositionFiles } from './composition-files/serve-composition-file.js';
import { resolveRemote, type RemoteAnswer } from './composition-files/resolve-remote.js';
import type { PrepareHtml } from './create-runtime-injector.js';
import { createNodeCompositionHost } from './node-composition-host.js';
import { ProblemLog } from './problem-log.js';

export type { PrepareHtml } from './create-runtime-injector.js';

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
  /** Answers a remote URL as the remote route does (Google Fonts and npm CDN URLs locally, else the network); failures are recorded too. */
  fetchRemote(url: string, referrer?: string): Promise<RemoteAnswer>;
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

const MOUNT_ROUTE = '/__seekframe/mount/';

/**
 * A loopback server for one project, for the render and `seekframe preview`: the composition's
 * files by the one rule every preview shares (composition-files/, with the files and packages of
 * this machine: node-composition-host.ts). Paths outside the root are refused (403); missing files
 * are answered 404 and recorded, so the render fails with a message naming the file and the
 * document that asked for it. Extra folders (extracted video frames) are mounted beside it.
 */
export async function createProjectServer(options: ProjectServerOptions): Promise<ProjectServer> {
  const root = path.resolve(options.root);
  const entryFile = path.resolve(root, options.entry);
  const log = options.problems ?? new ProblemLog();
  // Closing the server ends its downloads: a remote server that never answers would otherwise keep
  // the render's process alive for the whole remote time limit after the render stopped.
  const closed = new AbortController();
  const hostOptions = {
    confineToRoot: options.confineToRoot === true,
    problems: log,
    remoteTimeoutMs: options.remoteTimeoutMs ?? 15_000,
    network: options.publicRemoteOnly ? 'public' : 'open',
    signal: closed.signal,
  } as const;
  const host = createNodeCompositionHost({ root, ...hostOptions });
  const files = createCompositionFiles({
    host,
    entry: path.relative(root, entryFile).split(path.sep).join('/'),
    prepareHtml: options.prepareHtml,
  });
  const mounts = new Map<string, ReturnType<typeof createNodeCompositionHost>>();

  const app = new Hono();
  app.get(`${MOUNT_ROUTE}:name/*`, async (c) => {
    const mounted = mounts.get(c.req.param('name'));
    const rest = safeDecode(
      rawPath(c)
        .split(/[?#]/)[0]!
        .slice(MOUNT_ROUTE.length + c.req.param('name').length + 1),
    );
    if (!mounted || rest === null) return c.text('not found', 404);
    const file = await mounted.projectFile(rest, c.req.raw);
    if (file instanceof Response) return file;
    if (file) return file.respond(c.req.header('range'));
    mounted.reportMissing?.(rest, c.req.raw);
    return c.text('not found', 404);
  });
  // The raw request path: URL parsing would quietly fold `/../x` into `/x`, hiding an attempt
  // to leave the root that deserves a 403.
  app.all('*', (c) => files(c.req.raw, rawPath(c)));

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
      mounts.set(name, createNodeCompositionHost({ root: dir, ...hostOptions }));
      return `${origin}${MOUNT_ROUTE}${name}/`;
    },
    async fetchRemote(url, referrer) {
      const answer = await resolveRemote(url, host, { referrer });
      // This host always has a network; a null answer would be a wiring mistake.
      if (!answer) throw new Error(`no network to fetch ${url}`);
      return answer;
    },
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

function rawPath(c: { env: unknown; req: { url: string } }): string {
  return (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? new URL(c.req.url).pathname;
}

function safeDecode(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}
