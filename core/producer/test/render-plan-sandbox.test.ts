import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRender, renderFrames } from '../src/index.js';
import { composition, tempProject } from './helpers/temp-project.js';

/** A service on the host's loopback that a sandboxed chunk must never reach. */
let secret: Server;
let hits: string[] = [];
let secretOrigin: string;
let project: Awaited<ReturnType<typeof tempProject>>;

beforeAll(async () => {
  secret = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('secret');
  });
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
  secretOrigin = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;
  project = await tempProject({
    // Each seek asks the secret service; a chunk inherits the plan's sandbox or it gets through.
    'index.html': composition({
      width: 32,
      height: 32,
      duration: 1,
      fps: 10,
      body: `<script>window.__seekframe.onSeek((t) => fetch('${secretOrigin}/seek-' + Math.round(t * 10)).catch(() => {}));</script>`,
    }),
  });
});

afterAll(async () => {
  await new Promise((resolve) => secret?.close(resolve));
  await project?.cleanup();
});

describe('a chunk of a sandboxed plan', () => {
  it('reaches the service when the plan is open (control)', async () => {
    hits = [];
    const plan = await planRender({ projectDir: project.dir, workers: 1 });
    expect(plan.network).toBe('open');
    await renderFrames(
      plan,
      { start: 5, end: 8 },
      { kind: 'segment', path: path.join(project.dir, 'open.mp4') },
      { projectDir: project.dir },
    );
    expect(hits.filter((h) => h.startsWith('/seek-')).length).toBeGreaterThan(0);
  }, 120_000);

  it('is sandboxed like the plan without being told, and fails naming the URL it tried', async () => {
    hits = [];
    const plan = await planRender({ projectDir: project.dir, workers: 1 }, { network: 'sandboxed' });
    expect(plan.network).toBe('sandboxed');
    const chunk = renderFrames(
      plan,
      { start: 5, end: 8 },
      { kind: 'segment', path: path.join(project.dir, 'sandboxed.mp4') },
      { projectDir: project.dir },
    );
    await expect(chunk).rejects.toMatchObject({ code: 'remote-asset-failed', message: expect.stringContaining(secretOrigin) });
    expect(hits).toEqual([]);
  }, 120_000);
});
