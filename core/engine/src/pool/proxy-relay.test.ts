import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { relayablePort, startProxyRelay, type ProxyRelay } from './proxy-relay.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An echo server on a loopback port that counts its connections. */
async function echoServer(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.on('data', (chunk) => socket.write(`echo:${chunk.toString()}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as AddressInfo).port, connections: () => count };
}

async function relay(): Promise<ProxyRelay> {
  const started = await startProxyRelay();
  closers.push(() => started.close());
  return started;
}

/** Sends `text` through the relay; resolves with what came back, or 'closed' when the relay hung up without an answer. */
function exchange(relayServer: string, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: relayablePort(relayServer)! });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received || 'closed'));
    socket.on('connect', () => socket.write(text));
  });
}

describe('startProxyRelay', () => {
  it('drops every connection until it is bound, then relays bytes both ways to the bound port', async () => {
    const echo = await echoServer();
    const r = await relay();
    expect(await exchange(r.proxyServer, 'early')).toBe('closed');
    expect(echo.connections()).toBe(0);
    r.bind(echo.port);
    expect(await exchange(r.proxyServer, 'hello')).toBe('echo:hello');
    expect(echo.connections()).toBe(1);
  });

  it('close() ends open connections and refuses new ones', async () => {
    const echo = await echoServer();
    const r = await startProxyRelay();
    r.bind(echo.port);
    const socket = connect({ host: '127.0.0.1', port: relayablePort(r.proxyServer)! });
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    await r.close();
    await closed;
    const refused = await new Promise<string>((resolve) => {
      const again = connect({ host: '127.0.0.1', port: relayablePort(r.proxyServer)! });
      again.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      again.on('connect', () => resolve('connected'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('relayablePort', () => {
  it('accepts only an http proxy on 127.0.0.1 with a port', () => {
    expect(relayablePort('http://127.0.0.1:8123')).toBe(8123);
    expect(relayablePort('http://localhost:8123')).toBeUndefined();
    expect(relayablePort('socks5://127.0.0.1:8123')).toBeUndefined();
    expect(relayablePort('http://127.0.0.1')).toBeUndefined();
    expect(relayablePort('http://10.0.0.1:8123')).toBeUndefined();
    expect(relayablePort('http://127.0.0.1:8123/path')).toBeUndefined();
    expect(relayablePort('not a url')).toBeUndefined();
  });
});
