import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface UnpublishedRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Every package name npm asked for that this registry pretended not to have. */
  refused: string[];
  close(): Promise<void>;
}

/** `/@seekframe%2fproducer`, `/@seekframe/producer/-/producer-0.1.0.tgz`, `/seekframe` -> the package name. */
function packageOf(pathname: string): string {
  const parts = decodeURIComponent(pathname).split('/').filter(Boolean);
  return parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
}

/**
 * The npm registry as it is before Seekframe's first release: a proxy on 127.0.0.1 in front of
 * the local registry that answers 404 for every package in `hidden` (as registry.npmjs.org does
 * today) and forwards everything else. A user's install that still reaches for one of them fails
 * here exactly as it fails for them.
 */
export async function startUnpublishedRegistry(upstream: string, hidden: ReadonlySet<string>): Promise<UnpublishedRegistry> {
  const refused: string[] = [];
  const base = upstream.endsWith('/') ? upstream : `${upstream}/`;
  const forward = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://x');
    const name = packageOf(url.pathname);
    if (hidden.has(name)) {
      refused.push(name);
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && key !== 'host' && key !== 'connection') headers.set(key, value);
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : (Readable.toWeb(request) as ReadableStream);
    const answer = await fetch(new URL(`${url.pathname.slice(1)}${url.search}`, base), {
      method: request.method,
      headers,
      body,
      ...(body ? { duplex: 'half' } : {}),
    } as RequestInit);
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      // fetch has already decoded the body; its length and encoding no longer apply.
      if (key !== 'content-encoding' && key !== 'content-length' && key !== 'transfer-encoding') out[key] = value;
    });
    response.writeHead(answer.status, out);
    if (answer.body) Readable.fromWeb(answer.body as never).pipe(response);
    else response.end();
  };
  const server: Server = createServer((request, response) => {
    forward(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    refused,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
