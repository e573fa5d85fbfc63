import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { createProjectServer, type ProjectServer } from './project-server.js';

let dir: string;
let server: ProjectServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-server-test-'));
  await mkdir(path.join(dir, 'project', 'parts'), { recursive: true });
  await mkdir(path.join(dir, 'frames'));
  await writeFile(path.join(dir, 'secret.txt'), 'outside');
  await writeFile(path.join(dir, 'project', 'index.html'), '<html><head></head><body>entry</body></html>');
  await writeFile(path.join(dir, 'project', 'parts', 'child.html'), '<html><head></head><body>child</body></html>');
  await writeFile(path.join(dir, 'project', 'data.bin'), Buffer.from('0123456789'));
  await writeFile(path.join(dir, 'frames', 'frame_000001.jpg'), 'jpg');
  server = await createProjectServer({
    root: path.join(dir, 'project'),
    entry: 'index.html',
    prepareHtml: (html, { file, isEntry }) => html.replace('<head>', `<head><!--injected ${path.basename(file)} entry=${isEntry}-->`),
    remoteTimeoutMs: 2000,
  });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw request, so the path is sent exactly as written (fetch would normalise `..`). */
function rawGet(pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.origin);
    http
      .get({ host: '127.0.0.1', port: Number(port), path: pathname }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('project server', () => {
  it('injects into every HTML document and marks only the entry', async () => {
    expect(await (await fetch(server.entryUrl)).text()).toContain('<!--injected index.html entry=true-->');
    expect(await (await fetch(`${server.origin}/`)).text()).toContain('entry=true');
    expect(await (await fetch(`${server.origin}/parts/child.html`)).text()).toContain('<!--injected child.html entry=false-->');
  });

  it('serves byte ranges for media elements', async () => {
    const whole = await fetch(`${server.origin}/data.bin`);
    expect(await whole.text()).toBe('0123456789');
    const part = await fetch(`${server.origin}/data.bin`, { headers: { range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await part.text()).toBe('234');
  });

  it('refuses paths outside the root with 403', async () => {
    expect(await rawGet('/../secret.txt')).toBe(403);
    expect(await rawGet('/%2e%2e/secret.txt')).toBe(403);
    expect(await rawGet('/parts/..%2f..%2fsecret.txt')).toBe(403);
  });

  it('serves mounted folders', async () => {
    const prefix = server.mount('frames-a', path.join(dir, 'frames'));
    expect(await (await fetch(`${prefix}frame_000001.jpg`)).text()).toBe('jpg');
    expect(await rawGet('/__seekframe/mount/frames-a/..%2f..%2fsecret.txt')).toBe(403);
  });

  it('records a missing file with the document that referenced it', async () => {
    const response = await fetch(`${server.origin}/img/logo.png`, { headers: { referer: `${server.origin}/parts/child.html` } });
    expect(response.status).toBe(404);
    const problem = server.problems().find((p) => p.code === 'asset-not-found');
    expect(problem?.message).toMatch(/img\/logo\.png does not exist .*referenced by parts\/child\.html/);
    expect(() => server.assertNoProblems()).toThrow(SeekframeError);
  });

  it('answers npm CDN URLs from the local package through the remote route', async () => {
    const url = 'https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js';
    const response = await fetch(`${server.origin}/__seekframe/remote?url=${encodeURIComponent(url)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toContain('GreenSock');
  });

  it('fails an unreachable remote asset with remote-asset-failed naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/lib.js`;
    const error = await server.fetchRemote(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SeekframeError);
    expect((error as SeekframeError).code).toBe('remote-asset-failed');
    expect((error as SeekframeError).message).toContain(url);
    expect(server.problems().some((p) => p.code === 'remote-asset-failed')).toBe(true);
  });
});
