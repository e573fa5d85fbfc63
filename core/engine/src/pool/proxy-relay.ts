import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from '../system/listen-on-loopback.js';

/**
 * A loopback TCP relay that a browser context opened ahead of its render uses as its proxy. A
 * context's proxy is fixed when the context is created, but a sandboxed render's proxy (the
 * producer's network sandbox, which decides what a page may reach) exists only once the render
 * starts. So the context is created pointing at this relay, and the lease binds the relay to the
 * render's own proxy port: every byte then goes to that proxy, which enforces the render's rules.
 * Until it is bound every connection is dropped at once, so a context that is not leased reaches
 * nothing; the lease closes the relay when it ends.
 */
export interface ProxyRelay {
  /** `http://127.0.0.1:<port>`: the proxy server to create the context with. */
  readonly proxyServer: string;
  /** Sends every connection from now on to 127.0.0.1:<port>. */
  bind(port: number): void;
  /** Closes the relay and every connection through it. */
  close(): Promise<void>;
}

export async function startProxyRelay(): Promise<ProxyRelay> {
  let target: number | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: target });
    track(upstream);
    // Either side ending or failing ends both: nothing is left half open.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await listenOnLoopback(server);
  return {
    proxyServer: `http://127.0.0.1:${port}`,
    bind(to) {
      target = to;
    },
    close: () =>
      new Promise<void>((resolve) => {
        target = undefined;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The loopback port of a proxy a relay may hand connections to: only `http://127.0.0.1:<port>`
 * (the producer's network sandbox); anything else is not relayed.
 */
export function relayablePort(proxyServer: string): number | undefined {
  let url: URL;
  try {
    url = new URL(proxyServer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1' || url.port === '' || url.pathname !== '/') return undefined;
  return Number(url.port);
}
