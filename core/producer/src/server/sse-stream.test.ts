import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openSseStream, pipeSseToNode } from './sse-stream.js';

const read = async (response: Response): Promise<string> => response.text();

describe('openSseStream', () => {
  it('writes the greeting, then one message per event, and ends', async () => {
    const stream = openSseStream({ greeting: 'connected' });
    stream.send('progress', { framesRendered: 1 });
    stream.send('complete', { ok: true });
    stream.end();
    stream.send('late', {});
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(await read(stream.response)).toBe(
      ': connected\n\nevent: progress\ndata: {"framesRendered":1}\n\nevent: complete\ndata: {"ok":true}\n\n',
    );
  });

  it('reports a client that goes away (the body cancelled) once, and not after end()', async () => {
    let disconnects = 0;
    const stream = openSseStream({ onDisconnect: () => disconnects++ });
    await stream.response.body!.cancel();
    stream.send('x', 1);
    expect(disconnects).toBe(1);

    let after = 0;
    const ended = openSseStream({ onDisconnect: () => after++ });
    ended.end();
    await ended.response.body!.cancel();
    expect(after).toBe(0);
  });
});

describe('pipeSseToNode', () => {
  let server: Server | undefined;
  afterEach(async () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('streams to a plain Node response and notices the socket closing', async () => {
    let disconnected!: () => void;
    const gone = new Promise<void>((resolve) => (disconnected = resolve));
    let send!: (event: string) => void;
    const opened = new Promise<void>((resolve) => {
      server = createServer((_req, res) => {
        const stream = openSseStream({ outgoing: res, greeting: 'hi', onDisconnect: disconnected });
        pipeSseToNode(stream, res);
        send = (event) => stream.send(event, { n: 1 });
        resolve();
      }).listen(0, '127.0.0.1');
    });
    await new Promise((resolve) => server!.once('listening', resolve));
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, { signal: controller.signal });
    await opened;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    send('reload');
    while (!text.includes('event: reload')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toBe(': hi\n\nevent: reload\ndata: {"n":1}\n\n');
    controller.abort();
    await gone;
  });
});
