import { createHash, randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { frameReceiverDoor } from '@seekframe/engine';
import { startNetworkSandbox, type NetworkSandbox } from './network-sandbox.js';

/** What the stub project server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const MEDIA = randomBytes(64 * 1024);
const LARGE = randomBytes(8 * 1024 * 1024);

let project: Server;
let secret: Server;
let projectPort: number;
let secretPort: number;
let origin: string;
const seen: Seen[] = [];
let secretRequests = 0;
let secretConnections = 0;
/** Per-test handlers for paths that hold or break a response. */
const special = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function sha(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

beforeAll(async () => {
  project = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://stub').pathname;
      const handler = special.get(path);
      if (handler) return handler(req, res);
      if (path === '/hello') {
        res.writeHead(201, { 'content-type': 'text/plain', 'x-stub': 'yes', 'set-cookie': ['a=1', 'b=2'] });
        return res.end('hello from the project');
      }
      if (path === '/echo') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ length: body.length, sha: sha(body), type: req.headers['content-type'] }));
      }
      if (path === '/media.bin') {
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        if (!range) {
          res.writeHead(200, { 'content-length': MEDIA.length, 'accept-ranges': 'bytes' });
          return res.end(MEDIA);
        }
        const start = Number(range[1]);
        const end = Number(range[2]);
        res.writeHead(206, {
          'content-range': `bytes ${start}-${end}/${MEDIA.length}`,
          'content-length': end - start + 1,
          'accept-ranges': 'bytes',
        });
        return res.end(MEDIA.subarray(start, end + 1));
      }
      if (path === '/large.bin') {
        // Written in pieces without a length: the proxy must stream a chunked body through.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let offset = 0; offset < LARGE.length; offset += 256 * 1024) res.write(LARGE.subarray(offset, offset + 256 * 1024));
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
  });
  secret = createServer((_req, res) => {
    secretRequests += 1;
    res.end('secret');
  });
  secret.on('connection', () => {
    secretConnections += 1;
  });
  projectPort = await listen(project);
  secretPort = await listen(secret);
  origin = `http://127.0.0.1:${projectPort}`;
});

afterAll(async () => {
  project.closeAllConnections();
  secret.closeAllConnections();
  await new Promise((resolve) => project.close(resolve));
  await new Promise((resolve) => secret.close(resolve));
});

let sandbox: NetworkSandbox | undefined;
afterEach(async () => {
  special.clear();
  await sandbox?.close();
  sandbox = undefined;
});

async function start(): Promise<number> {
  sandbox = await startNetworkSandbox(origin);
  const flag = sandbox.args.find((arg) => arg.startsWith('--proxy-server='));
  return Number(new URL(flag!.slice('--proxy-server='.length)).port);
}

type Outcome = { status: number; headers: IncomingHttpHeaders; body: Buffer } | { error: string };

/** One request to the proxy on a fresh socket; `path` is the request target as sent. */
function viaProxy(
  proxyPort: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | Buffer[]; agent?: Agent },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port: proxyPort,
      method: options.method ?? 'GET',
      path: options.path,
      headers: options.headers,
      agent: options.agent ?? false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => resolve({ error: error.message }));
      res.on('close', () => (res.complete ? undefined : resolve({ error: 'response cut short' })));
    });
    req.on('connect', () => resolve({ error: 'unexpected CONNECT answer' }));
    req.on('upgrade', () => resolve({ error: 'unexpected upgrade answer' }));
    req.on('error', (error) => resolve({ error: error.message }));
    const parts = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const part of parts) req.write(part);
    req.end();
  });
}

/** Sends raw bytes to the proxy and collects every byte it answers until the socket closes. */
function raw(proxyPort: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(proxyPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(text);
  });
}

function ok(outcome: Outcome): { status: number; headers: IncomingHttpHeaders; body: Buffer } {
  if ('error' in outcome) throw new Error(`expected a response, the request failed: ${outcome.error}`);
  return outcome;
}

describe('startNetworkSandbox', () => {
  it('gives Chromium a loopback proxy and a bypass list of exactly <-loopback>', async () => {
    const port = await start();
    expect(sandbox!.args).toEqual([
      `--proxy-server=http://127.0.0.1:${port}`,
      '--proxy-bypass-list=<-loopback>',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ]);
  });

  it('forwards a GET for the project origin with its status, headers and body', async () => {
    const port = await start();
    const before = seen.length;
    const response = ok(
      await viaProxy(port, {
        path: `${origin}/hello?x=1&y=two`,
        headers: {
          host: `127.0.0.1:${projectPort}`,
          'proxy-connection': 'keep-alive',
          'proxy-authorization': 'Basic Zm9vOmJhcg==',
          'x-page': 'p1',
        },
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers['x-stub']).toBe('yes');
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.body.toString()).toBe('hello from the project');
    const request = seen.slice(before).find((entry) => entry.url.startsWith('/hello'));
    expect(request?.url).toBe('/hello?x=1&y=two');
    expect(request?.headers.host).toBe(`127.0.0.1:${projectPort}`);
    expect(request?.headers['x-page']).toBe('p1');
    expect(request?.headers['proxy-connection']).toBeUndefined();
    expect(request?.headers['proxy-authorization']).toBeUndefined();
  });

  it('forwards a Range request: 206 and exactly the asked bytes', async () => {
    const port = await start();
    const response = ok(await viaProxy(port, { path: `${origin}/media.bin`, headers: { range: 'bytes=1000-4999' } }));
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 1000-4999/${MEDIA.length}`);
    expect(response.body.equals(MEDIA.subarray(1000, 5000))).toBe(true);
  });

  it('streams a POST body to the project intact, with a length or chunked', async () => {
    const port = await start();
    const body = randomBytes(3 * 1024 * 1024 + 17);
    const sized = ok(
      await viaProxy(port, {
        method: 'POST',
        path: `${origin}/echo`,
        headers: { 'content-type': 'application/x-test', 'content-length': String(body.length) },
        body,
      }),
    );
    expect(JSON.parse(sized.body.toString())).toEqual({ length: body.length, sha: sha(body), type: 'application/x-test' });
    const pieces = [body.subarray(0, 1000), body.subarray(1000, 2_000_000), body.subarray(2_000_000)];
    const chunked = ok(
      await viaProxy(port, { method: 'POST', path: `${origin}/echo`, headers: { 'content-type': 'application/x-test' }, body: pieces }),
    );
    expect(JSON.parse(chunked.body.toString())).toEqual({ length: body.length, sha: sha(body), type: 'application/x-test' });
  });

  it('streams a multi-megabyte response intact', async () => {
    const port = await start();
    const response = ok(await viaProxy(port, { path: `${origin}/large.bin` }));
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(LARGE.length);
    expect(sha(response.body)).toBe(sha(LARGE));
  });

  it('serves several requests over one kept-alive client connection', async () => {
    const port = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      agent.on('free', (socket) => sockets.add(socket));
      for (let i = 0; i < 3; i += 1) {
        const response = ok(await viaProxy(port, { path: `${origin}/media.bin`, headers: { range: `bytes=${i}-${i + 9}` }, agent }));
        expect(response.body.equals(MEDIA.subarray(i, i + 10))).toBe(true);
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('refuses other ports, other host names, CONNECT, Upgrade, origin-form and other schemes with no HTTP answer', async () => {
    const port = await start();
    const projectBefore = seen.length;
    const refused: Array<[string, Parameters<typeof viaProxy>[1]]> = [
      ['secret loopback port', { path: `http://127.0.0.1:${secretPort}/` }],
      ['secret port, project Host header', { path: `http://127.0.0.1:${secretPort}/hello`, headers: { host: `127.0.0.1:${projectPort}` } }],
      ['localhost on the project port', { path: `http://localhost:${projectPort}/hello` }],
      ['[::1] on the project port', { path: `http://[::1]:${projectPort}/hello` }],
      ['project host without the port', { path: 'http://127.0.0.1/hello' }],
      ['https to the project', { path: `https://127.0.0.1:${projectPort}/hello` }],
      ['ftp to the project', { path: `ftp://127.0.0.1:${projectPort}/hello` }],
      ['origin-form', { path: '/hello', headers: { host: `127.0.0.1:${projectPort}` } }],
      ['CONNECT to the secret', { method: 'CONNECT', path: `127.0.0.1:${secretPort}` }],
      ['CONNECT to the project', { method: 'CONNECT', path: `127.0.0.1:${projectPort}` }],
      ['Upgrade to the project', { path: `${origin}/hello`, headers: { connection: 'Upgrade', upgrade: 'websocket' } }],
      [
        'Expect 100-continue elsewhere',
        {
          method: 'POST',
          path: `http://127.0.0.1:${secretPort}/`,
          headers: { expect: '100-continue', 'content-length': '2' },
          body: Buffer.from('hi'),
        },
      ],
    ];
    for (const [name, options] of refused) {
      const outcome = await viaProxy(port, options);
      expect({ name, refused: 'error' in outcome }).toEqual({ name, refused: true });
    }
    // Raw: nothing at all comes back, not even a 400 for a malformed request.
    expect(await raw(port, 'GARBAGE\r\n\r\n')).toBe('');
    expect(await raw(port, `GET http://127.0.0.1:${secretPort}/ HTTP/1.1\r\nHost: 127.0.0.1:${secretPort}\r\n\r\n`)).toBe('');
    expect(await raw(port, `GET http://user:pw@127.0.0.1:${projectPort}/hello HTTP/1.1\r\nHost: 127.0.0.1:${projectPort}\r\n\r\n`)).toBe(
      '',
    );
    expect(await raw(port, `CONNECT 127.0.0.1:${secretPort} HTTP/1.1\r\nHost: 127.0.0.1:${secretPort}\r\n\r\n`)).toBe('');
    expect(secretRequests).toBe(0);
    expect(secretConnections).toBe(0);
    expect(seen.length).toBe(projectBefore);
  });

  it("opens one tunnel: to the engine's frame receiver, which answers only a WebSocket upgrade to an open channel", async () => {
    const port = await start();
    const receiver = await frameReceiverDoor();
    const connectTo = (target: string, then = ''): Promise<string> =>
      raw(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n${then}`);
    // Through the tunnel: a plain request gets the receiver's 426, an upgrade to a made-up channel nothing.
    const plain = await connectTo(receiver.host, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(plain).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 426 /);
    const upgrade = await connectTo(
      receiver.host,
      'GET /0123456789abcdef0123456789abcdef HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    expect(upgrade).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
    // The same port by another name, and every other target: refused without an answer.
    for (const target of [`localhost:${receiver.port}`, `[::1]:${receiver.port}`, `127.0.0.1:${secretPort}`, `127.0.0.1:${projectPort}`]) {
      expect(await connectTo(target), target).toBe('');
    }
    expect(secretConnections).toBe(0);
  });

  it('after a refused request on a kept-alive connection the next one is not answered either', async () => {
    const port = await start();
    const answer = await raw(
      port,
      `GET http://127.0.0.1:${secretPort}/ HTTP/1.1\r\nHost: x\r\n\r\nGET ${origin}/hello HTTP/1.1\r\nHost: 127.0.0.1:${projectPort}\r\n\r\n`,
    );
    expect(answer).toBe('');
    expect(secretRequests).toBe(0);
  });

  it('an upstream that breaks mid-response destroys the client socket (no hang, no clean end)', async () => {
    const port = await start();
    special.set('/break', (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(100), () => res.socket?.destroy());
    });
    const outcome = await viaProxy(port, { path: `${origin}/break` });
    expect('error' in outcome).toBe(true);
  });

  it('a project server that is gone gives the client a dropped socket, not an answer', async () => {
    const gone = createServer();
    const gonePort = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    sandbox = await startNetworkSandbox(`http://127.0.0.1:${gonePort}`);
    const port = Number(new URL(sandbox.args[0]!.slice('--proxy-server='.length)).port);
    expect(await raw(port, `GET http://127.0.0.1:${gonePort}/ HTTP/1.1\r\nHost: 127.0.0.1:${gonePort}\r\n\r\n`)).toBe('');
  });

  it('a client that goes away mid-response stops the upstream request', async () => {
    const port = await start();
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    special.set('/hold', (_req, res) => {
      res.once('close', () => upstreamClosed());
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first part');
    });
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `${origin}/hold`, agent: false });
      req.on('response', (res) => res.once('data', () => (req.destroy(), resolve())));
      req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
      req.end();
    });
    await closed;
  });

  it('close() ends open client and upstream connections and resolves', async () => {
    const port = await start();
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let headersSent!: () => void;
    const sent = new Promise<void>((resolve) => (headersSent = resolve));
    special.set('/hold', (_req, res) => {
      res.once('close', () => upstreamClosed());
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first part', () => headersSent());
    });
    const outcome = viaProxy(port, { path: `${origin}/hold` });
    await sent;
    await sandbox!.close();
    sandbox = undefined;
    expect('error' in (await outcome)).toBe(true);
    await closed;
  });
});
