import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { frameReceiverDoor, listenOnLoopback } from '@seekframe/engine';

export interface NetworkSandbox {
  /** Chromium flags: every request goes to a proxy that forwards the project origin and refuses the rest. */
  args: string[];
  close(): Promise<void>;
}

/**
 * Locks a render's browsers in: the page may talk to its own project server and nothing else.
 * Request interception per page would miss workers and service workers; a proxy applies to every
 * request the browser process makes. The proxy is an HTTP forward proxy on loopback that forwards
 * requests for the project origin (exact scheme, host and port) to the project server and answers
 * everything else by hanging up at once (no HTTP answer), so any other URL fails fast in the page
 * and the render fails naming it. `<-loopback>` is the whole bypass list: it removes Chromium's
 * implicit bypass for localhost, so every request, the project server's included, goes through the
 * proxy, and other loopback ports are refused too. The project server is reached through the proxy
 * rather than a bypass rule so that a browser context's proxy settings name nothing render-specific:
 * they are the same for every render, and the warm browser pool can open the next render's context
 * (and page) before that render's project server exists. Remote assets still work through the
 * project server's remote route, which checks the address policy.
 *
 * One tunnel is allowed: `CONNECT 127.0.0.1:<port>` of the engine's frame receiver, where canvas
 * capture's page sends its pixels (a WebSocket: Chromium tunnels those through an HTTP proxy). The
 * tunnel is not a connection to that port but the client socket itself, handed to the receiver in
 * this process; the receiver answers only a WebSocket upgrade to the path of an open capture
 * channel (a random 128-bit token) and never sends anything anywhere, so the page learns or
 * reaches nothing through it. Every other CONNECT is refused as before.
 */
export async function startNetworkSandbox(projectOrigin: string): Promise<NetworkSandbox> {
  const receiver = await frameReceiverDoor();
  const project = new URL(projectOrigin);
  const upstreamHost = project.hostname.replace(/^\[(.*)\]$/, '$1');
  const upstreamPort = Number(project.port || 80);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  /** True only for an absolute-form `http://<project host:port>/...` request that may be forwarded. */
  const allowed = (req: IncomingMessage): boolean => {
    if (req.method === 'CONNECT' || req.headers.upgrade !== undefined) return false;
    const target = req.url ?? '';
    if (!/^http:\/\//i.test(target)) return false;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return false;
    }
    return url.protocol === 'http:' && url.host === project.host && !url.username && !url.password;
  };

  const refuse = (req: IncomingMessage): void => {
    req.socket.destroy();
  };

  const forward = (req: IncomingMessage, res: ServerResponse, retried = false): void => {
    const url = new URL(req.url ?? '');
    const headers = forwardedHeaders(req.headers);
    headers.host = project.host;
    const bodiless = !('content-length' in req.headers && req.headers['content-length'] !== '0') && !('transfer-encoding' in req.headers);
    const upstream = request({
      host: upstreamHost,
      port: upstreamPort,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      agent,
    });
    upstream.on('socket', (socket) => track(socket));
    let answered = false;
    upstream.on('response', (upstreamRes) => {
      answered = true;
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardedHeaders(upstreamRes.headers));
      pipeline(upstreamRes, res, (error) => {
        // A truncated body must look truncated to the page, not complete: drop the client socket.
        if (error) {
          upstream.destroy();
          req.socket.destroy();
        }
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return req.socket.destroy();
      // A kept-alive upstream socket the project server closed just as it was reused: resend a
      // request without a body once (Node's documented pattern), else the page would see a failure.
      if (!retried && upstream.reusedSocket && bodiless && SAFE_METHODS.has(req.method ?? '') && error.code === 'ECONNRESET') {
        forward(req, res, true);
        return;
      }
      req.socket.destroy();
    });
    // The client went away (or the server is closing) before the response ended: stop the upstream.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (retried || bodiless) {
      upstream.end();
    } else {
      pipeline(req, upstream, (error) => {
        if (error) req.socket.destroy();
      });
    }
  };

  const server = createServer((req, res) => {
    if (!allowed(req)) return refuse(req);
    forward(req, res);
  });
  server.on('connection', (socket: Socket) => track(socket));
  // Node would answer these itself (400/431, 417, 100 Continue, or closing after a reply): every
  // one of them is a refusal without an HTTP answer, except 100-continue to the project origin.
  server.on('clientError', (_error, socket: Socket) => socket.destroy());
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (req.url !== receiver.host) return socket.destroy();
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    receiver.adopt(socket, head);
  });
  server.on('upgrade', (_req, socket: Socket) => socket.destroy());
  server.on('checkExpectation', (req: IncomingMessage) => refuse(req));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!allowed(req)) return refuse(req);
    delete req.headers.expect;
    res.writeContinue();
    forward(req, res);
  });
  const port = await listenOnLoopback(server);
  return {
    args: [
      `--proxy-server=http://127.0.0.1:${port}`,
      // The browser pool relies on this being exactly `<-loopback>` (nothing bypasses the proxy).
      '--proxy-bypass-list=<-loopback>',
      // WebRTC could otherwise send UDP straight to LAN addresses.
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        agent.destroy();
      }),
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers that describe one connection, not the message: never passed across the proxy. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host']);

/** The end-to-end headers of a message: hop-by-hop ones, those `Connection` names, and `proxy-*` dropped. */
function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name.startsWith('proxy-')) continue;
    kept[name] = value;
  }
  return kept;
}
