import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameReceiverDoor } from '@seekframe/engine';
import { createProducerServer, renderComposition, type ProducerServer } from '../src/index.js';
import { probe } from './helpers/media-tools.js';
import { streamRender } from './helpers/server-client.js';
import { composition, tempProject } from './helpers/temp-project.js';

/** A service on the host's loopback that a rendered page must never reach. */
let privateService: Server;
let hits: string[] = [];
let privateOrigin: string;
let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  privateService = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(PNG);
  });
  await new Promise<void>((resolve) => privateService.listen(0, '127.0.0.1', resolve));
  const { port } = privateService.address() as AddressInfo;
  privateService.on('upgrade', (req, socket) => {
    hits.push(req.url ?? '');
    socket.destroy();
  });
  const receiverPort = (await frameReceiverDoor()).port;
  privateOrigin = `http://127.0.0.1:${port}`;
  const page = (body: string): string => composition({ width: 32, height: 32, duration: 0.2, fps: 10, body });
  project = await tempProject({
    'script-fetch/index.html': page(`<script>
      fetch('${privateOrigin}/from-script').catch(() => {});
      new Worker(URL.createObjectURL(new Blob(["fetch('${privateOrigin}/from-worker').catch(() => {})"], { type: 'text/javascript' })));
    </script>`),
    'static-img/index.html': page(`<img src="${privateOrigin}/static.png" width="32" height="32">`),
    'localhost-img/index.html': page(`<img src="http://localhost:${port}/by-name.png" width="32" height="32">`),
    'canvas-ok/index.html': page('<div style="width:32px;height:32px;background:#e33"></div>'),
    // The canvas capture's own channel is a WebSocket to a loopback port: the page tries the same door elsewhere.
    'ws-doors/index.html': page(`<div style="width:32px;height:32px;background:#3c6"></div><script>
      for (const target of ['ws://127.0.0.1:${port}/from-ws', 'ws://localhost:${port}/from-ws-name', 'ws://127.0.0.1:${receiverPort}/guessed-token']) {
        try { new WebSocket(target).onerror = () => {}; } catch {}
      }
    </script>`),
  });
  server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 2, env: {} });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => privateService?.close(resolve));
  await project?.cleanup();
});

describe('renders started by the server cannot reach private addresses', () => {
  it('a static <img> pointing at loopback reaches it in an ordinary render (control)', async () => {
    hits = [];
    const output = path.join(project.dir, 'control.mp4');
    await renderComposition({ projectDir: path.join(project.dir, 'static-img'), output, workers: 1 });
    expect(hits).toContain('/static.png');
    expect((await probe(output)).streams[0]).toMatchObject({ codec_name: 'h264', width: 32, height: 32, nb_read_frames: '2' });
  });

  it.each([
    ['static-img', /127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback\/private\/link-local address/],
    ['localhost-img', /localhost resolves to (127\.0\.0\.1|::1), a loopback\/private\/link-local address/],
  ])('%s: the remote route refuses, the render fails naming the URL', async (projectDir, message) => {
    hits = [];
    const events = await streamRender(server.url, { projectDir, workers: 1 }).done;
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'error', error: { code: 'remote-asset-failed' } });
    expect((last as { error: { message: string } }).error.message).toMatch(message);
    expect(hits).toEqual([]);
  });

  it('captures with canvas: the frames reach the frame receiver through the one tunnel the sandbox allows', async () => {
    const events = await streamRender(server.url, { projectDir: 'canvas-ok', workers: 1 }).done;
    const last = events.at(-1) as { type: string; report?: { captureMode?: { value: string } } };
    expect(last.type).toBe('complete');
    expect(last.report?.captureMode?.value).toBe('canvas');
  });

  it('a page cannot open a WebSocket to another loopback port, nor use the frame receiver without its channel', async () => {
    // Control: an ordinary render of the same page does reach the loopback service.
    hits = [];
    await renderComposition({ projectDir: path.join(project.dir, 'ws-doors'), output: path.join(project.dir, 'ws.mp4'), workers: 1 }).catch(
      () => undefined,
    );
    expect(hits).toContain('/from-ws');
    hits = [];
    const events = await streamRender(server.url, { projectDir: 'ws-doors', workers: 1 }).done;
    expect(events.at(-1)?.type).toMatch(/^(complete|error)$/);
    expect(hits).toEqual([]);
  });

  it('requests a page script or a worker makes on its own never leave the browser', async () => {
    hits = [];
    const events = await streamRender(server.url, { projectDir: 'script-fetch', workers: 1 }).done;
    const last = events.at(-1);
    // The page's own fetch fails in the browser, which fails the render and names the URL.
    expect(last).toMatchObject({ type: 'error', error: { code: 'remote-asset-failed' } });
    expect((last as { error: { message: string } }).error.message).toContain(`${privateOrigin}/from-`);
    expect(hits).toEqual([]);
  });
});
