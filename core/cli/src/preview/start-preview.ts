import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { createProjectServer, createRuntimeInjector, type ProjectServer, type RenderContext } from '@seekframe/producer';
import { isPreviewHost, previewHosts, refuseForeignHost } from './preview-hosts.js';
import { handlePreviewRoute } from './preview-routes.js';
import { proxyRequest } from './proxy-request.js';
import { SseHub } from './sse-hub.js';
import { createStudio } from './studio/create-studio.js';
import { watchProject } from './watch-project.js';

export interface PreviewOptions {
  /** Absolute path of the entry HTML; its folder is served. */
  entryFile: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The `<seekframe-player>` ES module (`@seekframe/player/bundle`). */
  playerSource: string;
  /** The preview page script (`seekframe/preview-app.js`, built from src/preview/browser/preview-app.ts). */
  appSource: string;
  /** The runtime IIFE (`@seekframe/runtime/bundle`). */
  runtimeSource: string;
  /** Quiet time before a burst of file changes becomes one reload. */
  debounceMs?: number;
  /** Called with the changed files after each reload was sent. */
  onReload?: (files: string[]) => void;
  /** The studio's editor link reads SEEKFRAME_EDITOR_URL, VISUAL, EDITOR and PATH from here (default: none). */
  env?: Record<string, string | undefined>;
  /** Passed to renders started from the render panel, as `seekframe render` does (the saved tuning). */
  renderContext?: RenderContext;
}

export interface PreviewServer {
  /** `http://127.0.0.1:<port>/`: the preview page. */
  url: string;
  close(): Promise<void>;
}

/**
 * `seekframe preview`: the preview page and its routes on `port`, and every other path proxied to
 * the producer's project server in mode 'preview' (the same injection and asset handling as a
 * render, so the player shows what the renderer renders). File changes reload open pages over SSE.
 */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const root = path.dirname(options.entryFile);
  const host = options.host ?? '127.0.0.1';
  const project: ProjectServer = await createProjectServer({
    root,
    entry: path.basename(options.entryFile),
    prepareHtml: createRuntimeInjector({ runtimeSource: options.runtimeSource, mode: 'preview' }),
  });
  const hub = new SseHub();
  const studio = createStudio({
    root,
    entryFile: options.entryFile,
    host,
    env: options.env ?? {},
    ...(options.renderContext ? { renderContext: options.renderContext } : {}),
  });
  const routeContext = {
    root,
    entryFile: options.entryFile,
    title: path.basename(root),
    playerSource: options.playerSource,
    appSource: options.appSource,
    hub,
  };
  let ownOrigin = '';
  const sockets = new Set<Socket>();
  const hosts = previewHosts(host);
  const server: Server = createServer((req, res) => {
    // Every route, not only the studio's: the page, the composition's files and the proxy to the
    // project server are as readable to a rebinding page as the render panel is to start.
    if (!isPreviewHost(hosts, req.headers.host)) return refuseForeignHost(res, req, hosts);
    if (studio.handle(req, res)) return;
    handlePreviewRoute(req, res, routeContext)
      .then((handled) => {
        if (!handled) proxyRequest(req, res, { origin: project.origin, ownOrigin });
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => resolve());
    });
  } catch (error) {
    hub.close();
    await studio.close();
    await project.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new SeekframeError(
        'port-in-use',
        `Port ${options.port} is already in use; pass another one with --port <n> (or --port 0 for any free port).`,
        {
          stage: 'serve',
          details: { port: options.port },
        },
      );
    }
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://${host}:${port}`;
  const stopWatching = watchProject(
    root,
    (files) => {
      studio.noteChange();
      hub.send('reload', { files });
      options.onReload?.(files);
    },
    options.debounceMs,
  );

  let closing: Promise<void> | undefined;
  return {
    url: `${ownOrigin}/`,
    close() {
      closing ??= (async () => {
        stopWatching();
        hub.close();
        await studio.close();
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await project.close();
      })();
      return closing;
    },
  };
}
