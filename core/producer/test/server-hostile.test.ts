import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, type ProducerServer } from '../src/index.js';
import { childProcesses, childProcessesSync } from './helpers/child-processes.js';
import { gatedComposition, getJson, postJson, streamRender, tinyComposition } from './helpers/server-client.js';
import { composition, tempProject } from './helpers/temp-project.js';

// Hostile and careless requests against a real server: blocked pages, dialogs, killed processes,
// requests over the limits, malformed HTTP. Every one ends with a clear error, a free slot and no
// browser left behind.
const seekSpin = (body = '') =>
  composition({
    width: 32,
    height: 32,
    duration: 0.3,
    fps: 10,
    body: `<div>x</div>${body}<script>window.__seekframe.onSeek((t) => { if (t > 0) { while (true) {} } });</script>`,
  });

let project: Awaited<ReturnType<typeof tempProject>>;
let fast: ProducerServer;
let slow: ProducerServer;

beforeAll(async () => {
  const gated = Object.fromEntries(Object.entries(gatedComposition()).map(([file, text]) => [`gated/${file}`, text]));
  project = await tempProject({
    'tiny/index.html': tinyComposition(),
    'spin-seek/index.html': seekSpin(),
    'spin-load/index.html': composition({
      width: 32,
      height: 32,
      duration: 0.2,
      fps: 10,
      body: '<div>x</div><script>while (true) {}</script>',
    }),
    'alert/index.html': composition({
      width: 32,
      height: 32,
      duration: 0.3,
      fps: 10,
      body: '<script>window.__seekframe.onSeek((t) => { if (t > 0) alert("are you there?"); });</script>',
    }),
    'long/index.html': composition({ width: 32, height: 32, duration: 86400, fps: 10, body: '<div>x</div>' }),
    'huge/index.html': composition({ width: 8000, height: 8000, duration: 0.2, fps: 10, body: '<div>x</div>' }),
    'no-root/index.html': '<!doctype html><html><body><p>no composition root here</p></body></html>',
    'empty/index.html': composition({ width: 32, height: 32, duration: 0, fps: 10, body: '<div>x</div>' }),
    ...gated,
  });
  // Short page timeouts, so blocked pages fail fast; small limits to test the refusals. No warm
  // browsers: these tests count browser processes, and every one must be gone after each render
  // (the pool's own replacement of killed browsers: server-warm-pool.test.ts).
  fast = await createProducerServer({
    port: 0,
    root: project.dir,
    maxConcurrentRenders: 1,
    env: {},
    warmBrowsers: 0,
    pageTimeoutMs: 3_000,
    limits: { maxFrames: 1_000, maxWorkers: 2 },
  });
  // Page timeouts far longer than any test: only the mechanism under test can end a render here.
  slow = await createProducerServer({
    port: 0,
    root: project.dir,
    maxConcurrentRenders: 1,
    env: {},
    warmBrowsers: 0,
    pageTimeoutMs: 600_000,
    limits: { maxRenderSeconds: 600 },
  });
});
afterAll(async () => {
  await fast?.close();
  await slow?.close();
  await project?.cleanup();
});

async function expectNoBrowsers(): Promise<void> {
  let left = await childProcesses(/chrom/);
  // A bound for a machine that barely runs the test; it returns as soon as they are gone.
  for (const goneBy = Date.now() + 30_000; left.length > 0 && Date.now() < goneBy; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = await childProcesses(/chrom/);
  }
  expect(left).toEqual([]);
}

async function expectSlotFree(server: ProducerServer): Promise<void> {
  expect((await getJson(`${server.url}/render/queue`)).body).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
}

describe('blocked pages', () => {
  it('while(true) in onSeek: error page-unresponsive naming the frame, slot free, no browser left', { timeout: 90_000 }, async () => {
    const last = (await streamRender(fast.url, { projectDir: 'spin-seek', workers: 1 }).done).at(-1) as {
      type: string;
      error: { code: string; message: string };
    };
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'page-unresponsive', message: expect.stringMatching(/stopped responding at frame \d/) },
    });
    await expectSlotFree(fast);
    await expectNoBrowsers();
  });

  it('while(true) at load: error page-unresponsive while loading, slot free, no browser left', { timeout: 90_000 }, async () => {
    const last = (await streamRender(fast.url, { projectDir: 'spin-load', workers: 1 }).done).at(-1);
    expect(last).toMatchObject({ type: 'error', error: { code: 'page-unresponsive', message: expect.stringContaining('while loading') } });
    await expectSlotFree(fast);
    await expectNoBrowsers();
  });

  it('alert() in onSeek: error page-dialog naming the text', { timeout: 90_000 }, async () => {
    const last = (await streamRender(fast.url, { projectDir: 'alert', workers: 1 }).done).at(-1);
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'page-dialog', message: expect.stringContaining('alert("are you there?")') },
    });
    await expectSlotFree(fast);
    await expectNoBrowsers();
  });

  it('a client that disconnects from a spinning render frees the slot and leaves no browser', { timeout: 90_000 }, async () => {
    const client = streamRender(slow.url, { projectDir: 'spin-seek', workers: 1 });
    // Frame 0 delivered: the worker has moved on to frame 1, whose seek spins for good.
    await client.next((e) => e.type === 'progress');
    client.disconnect();
    // A bound for a machine that barely runs the test; it goes on as soon as the slot is free.
    const freeBy = Date.now() + 60_000;
    while (slow.status().activeRenders > 0 && Date.now() < freeBy) await new Promise((resolve) => setTimeout(resolve, 100));
    await expectSlotFree(slow);
    await expectNoBrowsers();
  });
});

describe('crashes', () => {
  it('ffmpeg killed while the page is slow: ffmpeg-exited at once, not at the next frame', { timeout: 90_000 }, async () => {
    const client = streamRender(slow.url, { projectDir: 'gated', workers: 1 });
    await client.next((e) => e.type === 'progress');
    const ffmpegs = childProcessesSync(/ffmpeg/);
    expect(ffmpegs.length).toBeGreaterThan(0);
    for (const pid of ffmpegs) process.kill(pid, 'SIGKILL');
    // The gate never opens: without the exit event this render would wait for the 10-minute seek timeout.
    const last = (await client.done).at(-1);
    expect(last).toMatchObject({ type: 'error', error: { code: 'ffmpeg-exited', details: { frame: 1 } } });
    // ffmpeg's error names the output it was writing: by its token, not by where the server keeps it.
    expect(JSON.stringify(last)).not.toContain(project.dir);
    expect(JSON.stringify(last)).toContain('<outputs>/');
    await expectSlotFree(slow);
    await expectNoBrowsers();
  });
});

describe('limits, refused before rendering', () => {
  it('too many frames: 400 naming the limit, its flag and variable, from both routes', async () => {
    const blocking = await postJson<{ error: { code: string; message: string } }>(`${fast.url}/render`, { projectDir: 'long' });
    expect(blocking.status).toBe(400);
    expect(blocking.body.error).toMatchObject({
      code: 'limit-exceeded',
      message: expect.stringMatching(/864000 frames.*limit of 1000 \(--max-frames\).*PRODUCER_MAX_FRAMES/s),
    });
    const client = streamRender(fast.url, { projectDir: 'long' });
    expect(await client.status).toBe(400);
  });

  it('too many workers and too many pixels: 400', async () => {
    expect(
      (await postJson<{ error: { code: string } }>(`${fast.url}/render`, { projectDir: 'tiny', workers: 8 })).body.error,
    ).toMatchObject({ code: 'limit-exceeded', message: expect.stringContaining('--max-workers') });
    const huge = await postJson<{ error: { code: string; message: string } }>(`${fast.url}/render`, { projectDir: 'huge' });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ code: 'limit-exceeded', message: expect.stringContaining('--max-pixels') });
  });

  it('a render past its wall time is cancelled with render-timeout', { timeout: 90_000 }, async () => {
    const timed = await createProducerServer({
      port: 0,
      root: project.dir,
      maxConcurrentRenders: 1,
      env: { PRODUCER_MAX_RENDER_SECONDS: '3' },
      warmBrowsers: 0,
      pageTimeoutMs: 600_000,
    });
    try {
      expect(timed.config.limits.maxRenderSeconds).toBe(3);
      const last = (await streamRender(timed.url, { projectDir: 'gated', workers: 1 }).done).at(-1);
      expect(last).toMatchObject({
        type: 'error',
        error: { code: 'render-timeout', message: expect.stringContaining('PRODUCER_MAX_RENDER_SECONDS') },
      });
      expect(timed.status().activeRenders).toBe(0);
      await expectNoBrowsers();
    } finally {
      await timed.close();
    }
  });

  it('a bad limit setting refuses to start, naming the variable', async () => {
    await expect(createProducerServer({ port: 0, root: project.dir, env: { PRODUCER_MAX_FRAMES: 'lots' } })).rejects.toMatchObject({
      code: 'invalid-server-options',
      message: expect.stringContaining('PRODUCER_MAX_FRAMES'),
    });
  });
});

describe('requests', () => {
  it('POST /render/stream answers a composition that fails lint with 400 JSON before the stream opens', async () => {
    const response = await fetch(`${fast.url}/render/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectDir: 'no-root' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('lint-failed');
  });

  it('errors sent to clients carry no absolute server path', { timeout: 60_000 }, async () => {
    const blocking = await postJson(`${fast.url}/render`, { projectDir: 'empty' });
    const streamed = await streamRender(fast.url, { projectDir: 'empty' }).done.catch(() => []);
    const bad = await postJson(`${fast.url}/render`, { projectDir: 'missing-folder' });
    const text = JSON.stringify([blocking.body, streamed, bad.body]);
    expect(blocking.status).toBe(400);
    expect(text).toContain('index.html');
    expect(text).not.toContain(project.dir);
    expect(text).not.toMatch(/"\/(tmp|home|root|work)\//);
  });

  it('deeply nested variables: 400 invalid-body', async () => {
    for (const depth of [100, 20_000]) {
      const body = `{"projectDir":"tiny","variables":{"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
      const response = await fetch(`${fast.url}/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid-body');
    }
  });

  it('a whitespace-only PRODUCER_AUTH_TOKEN refuses to start', async () => {
    await expect(createProducerServer({ port: 0, root: project.dir, env: { PRODUCER_AUTH_TOKEN: '   ' } })).rejects.toMatchObject({
      code: 'invalid-server-options',
      message: expect.stringContaining('PRODUCER_AUTH_TOKEN is set but blank'),
    });
  });

  it('an over-limit chunked body gets its 413 JSON', { timeout: 30_000 }, async () => {
    const answer = await rawRequest(
      fast.url,
      '/render',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      (write) => {
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let i = 0; i < 64; i++) write(chunk); // 4 MiB against the 2 MiB limit
      },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'body-too-large' } });
  });

  it('oversized headers get JSON 431, an oversized URL JSON 414', async () => {
    const headers = await rawRequest(fast.url, '/health', { 'x-big': 'a'.repeat(20_000) });
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body)).toMatchObject({ error: { code: 'headers-too-large' } });
    const url = await rawRequest(fast.url, `/health?${'q'.repeat(20_000)}`, {});
    expect(url.status).toBe(414);
    expect(JSON.parse(url.body)).toMatchObject({ error: { code: 'url-too-long' } });
    const medium = await rawRequest(fast.url, `/health?${'q'.repeat(10_000)}`, {});
    expect(medium.status).toBe(414);
    expect(JSON.parse(medium.body)).toMatchObject({ error: { code: 'url-too-long' } });
    // Past Node's first 64 KiB read: answered, not reset (the rest of what the client sends is drained).
    const huge = await fetch(`${fast.url}/health?${'q'.repeat(70_000)}`);
    expect(huge.status).toBe(414);
    expect(await huge.json()).toMatchObject({ error: { code: 'url-too-long', retryable: false } });
    const big = await rawRequest(fast.url, '/health', { 'x-big': 'b'.repeat(64 * 1024) });
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: 'headers-too-large' } });
  });
});

function rawRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  send?: (write: (chunk: Buffer) => void) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: send ? 'POST' : 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    if (send) send((chunk) => req.write(chunk));
    req.end();
  });
}
