import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { injectRuntime } from '../../src/inject-runtime.js';
import type { InjectedConfig } from '../../src/injected-config.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  // served as HTML but without the runtime (only .html gets it): a file from a foreign server
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ttf': 'font/ttf',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.wav': 'audio/wav',
};

export type Route = string | Buffer | { file: string; delayMs?: number } | { hang: true };

export interface FixtureServer {
  url: string;
  /** Adds or replaces served paths (`/a.html` -> content). */
  routes: Map<string, Route>;
  close(): Promise<void>;
}

/**
 * Test-only static server on 127.0.0.1:0 that injects the runtime into every .html it serves,
 * as the producer's project server does. `{ hang: true }` never answers (for pending()).
 */
export async function startFixtureServer(options: {
  runtimeSource: string;
  configFor: (pathname: string, search: URLSearchParams) => InjectedConfig;
}): Promise<FixtureServer> {
  const routes = new Map<string, Route>();
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = routes.get(url.pathname);
    if (route === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    if (typeof route === 'object' && 'hang' in route) return; // keep the request open forever
    if (typeof route === 'object' && 'delayMs' in route && route.delayMs) await new Promise((r) => setTimeout(r, route.delayMs));
    const body = typeof route === 'string' || Buffer.isBuffer(route) ? route : await readFile(route.file);
    const ext = path.extname(url.pathname);
    if (ext === '.html') {
      const html = injectRuntime(body.toString('utf8'), options.configFor(url.pathname, url.searchParams), options.runtimeSource);
      res.writeHead(200, { 'content-type': TYPES[ext] ?? 'text/html' }).end(html);
      return;
    }
    serveBytes(req, res, Buffer.isBuffer(body) ? body : Buffer.from(body), TYPES[ext] ?? 'application/octet-stream');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Media elements need byte ranges to seek. */
function serveBytes(req: IncomingMessage, res: ServerResponse, body: Buffer, type: string): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (!range) {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'accept-ranges': 'bytes' }).end(body);
    return;
  }
  const start = range[1] ? Number(range[1]) : 0;
  const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
  res
    .writeHead(206, {
      'content-type': type,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${body.length}`,
      'accept-ranges': 'bytes',
    })
    .end(body.subarray(start, end + 1));
}
