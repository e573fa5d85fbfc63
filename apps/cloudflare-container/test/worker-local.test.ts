import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, TINY_COMPOSITION } from './helpers/start-render-server.js';
import { startLocalWorker, type LocalWorker } from './helpers/start-local-worker.js';

/**
 * The Cloudflare-specific behaviour of the template, in the real Workers runtime with a real local
 * R2 bucket and the container's server on the host: renders stored in R2 under renders/<id>.mp4,
 * `/r/<key>` with Range, job state in Durable Objects (polling), one renderer slot per job (429).
 */
let worker: LocalWorker;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'seekframe-cf-test-'));
  worker = await startLocalWorker({
    compositionDir: TINY_COMPOSITION,
    vars: { ALLOW_CUSTOM_HTML: 'true' },
    container: { maxConcurrent: 1 },
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function r2Keys(): Promise<string[]> {
  const bucket = await worker.mf.getR2Bucket('RENDERS');
  return (await bucket.list({ prefix: 'renders/' })).objects.map((o) => o.key);
}

describe('Cloudflare template, local mode (Miniflare + R2 + host container server)', () => {
  it('GET /api/openapi.json answers the render API document from the Worker bundle (zod-openapi in the Workers runtime)', async () => {
    const response = await fetch(`${worker.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/render', '/api/render/{id}', '/api/composition']));
    // Sync answer mode: the Worker waits for the render, so no /renders/{name} route.
    expect(document.paths['/renders/{name}']).toBeUndefined();
  });

  it('POST /api/render waits, stores the MP4 in R2 under renders/<id>.mp4 and answers {url, key, durationMs}', async () => {
    const response = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variables: { title: 'R2' } }),
    });
    const body = (await response.json()) as { id: string; url: string; key: string; durationMs: number };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.key).toBe(`renders/${body.id}.mp4`);
    expect(body.url).toBe(`/r/${body.key}`);
    expect(body.durationMs).toBeGreaterThan(0);
    expect(await r2Keys()).toContain(body.key);

    // /r/<key> serves it from R2: whole file, then a Range.
    const whole = await fetch(`${worker.url}${body.url}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const file = join(scratch, 'whole.mp4');
    await writeFile(file, bytes);
    expect(await probeVideo(file)).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 10 });

    const part = await fetch(`${worker.url}${body.url}`, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${bytes.byteLength}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(4, 12));
    const beyond = await fetch(`${worker.url}${body.url}`, { headers: { range: `bytes=${bytes.byteLength}-` } });
    expect(beyond.status).toBe(416);

    // The renderer slot is free again (the job released it once the file was in R2).
    const health = (await (await fetch(`${worker.containerUrl}/health`)).json()) as { activeJobs: number };
    expect(health.activeJobs).toBe(0);
  });

  it('Prefer: respond-async answers 202 at once; the job state lives in its Durable Object until the MP4 is served', async () => {
    const response = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async' },
      body: JSON.stringify({ variables: { color: '#00ff00' } }),
    });
    expect(response.status).toBe(202);
    const { id, statusUrl } = (await response.json()) as { id: string; statusUrl: string };
    expect(response.headers.get('location')).toBe(statusUrl);

    let last: Response | undefined;
    const seen = new Set<string>();
    for (let i = 0; i < 120; i++) {
      last = await fetch(`${worker.url}${statusUrl}`, { redirect: 'manual' });
      if (last.status !== 202) break;
      expect(last.headers.get('retry-after')).toBe('2');
      const state = (await last.json()) as { status: string; totalFrames: number | null };
      seen.add(state.status);
      expect(state.totalFrames).toBe(10);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect([...seen].every((status) => status === 'queued' || status === 'running')).toBe(true);
    // Done: a redirect to the stored file on /r/.
    expect(last?.status).toBe(302);
    expect(last?.headers.get('location')).toBe(`/r/renders/${id}.mp4`);
    const state = (await (await fetch(`${worker.url}${statusUrl}`, { headers: { accept: 'application/json' } })).json()) as {
      status: string;
      result: { key: string; size: number };
    };
    expect(state).toMatchObject({ status: 'completed', result: { key: `renders/${id}.mp4` } });
    const bucket = await worker.mf.getR2Bucket('RENDERS');
    expect((await bucket.head(`renders/${id}.mp4`))?.size).toBe(state.result.size);
  });

  it('a render that finds no free renderer is refused with 429 too-many-renders and Retry-After (one instance per job, never shared)', async () => {
    // Hold the only slot, as a running render on another instance would.
    expect((await fetch(`${worker.containerUrl}/jobs/someone-else`, { method: 'PUT' })).status).toBe(201);
    try {
      const response = await fetch(`${worker.url}/api/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBeTruthy();
      expect(await response.json()).toMatchObject({ error: { code: 'too-many-renders', retryable: true } });
    } finally {
      await fetch(`${worker.containerUrl}/jobs/someone-else`, { method: 'DELETE' });
    }
  });

  it('DELETE cancels a running render on its renderer and nothing reaches R2', async () => {
    const response = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async' },
      // 6 s at 30 fps: long enough that the cancel arrives mid-render.
      body: JSON.stringify({
        html: '<!doctype html><html data-composition-id="slow" data-width="160" data-height="90" data-duration="6"><body style="margin:0;background:#123"><div class="clip" data-start="0" data-duration="6">x</div></body></html>',
      }),
    });
    const { id, statusUrl } = (await response.json()) as { id: string; statusUrl: string };
    // Wait until it is running on the renderer, then cancel.
    await expect
      .poll(async () => ((await (await fetch(`${worker.containerUrl}/jobs/${id}`)).json()) as { running?: boolean }).running, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    const cancel = await fetch(`${worker.url}${statusUrl}`, { method: 'DELETE' });
    expect(cancel.status).toBe(202);
    await expect.poll(async () => (await fetch(`${worker.containerUrl}/jobs/${id}`)).status, { timeout: 30_000, interval: 200 }).toBe(404);
    const after = await fetch(`${worker.url}${statusUrl}`);
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ error: { code: 'render-cancelled' } });
    expect(await r2Keys()).not.toContain(`renders/${id}.mp4`);
  });

  it("/r/ serves only renders/<name> keys (the output store's key rule) and answers 404 JSON for anything else", async () => {
    const SECRET = 'SEEKFRAME-R2-SECRET-5e21';
    const bucket = await worker.mf.getR2Bucket('RENDERS');
    // R2 keys are plain strings: these objects exist under the very keys a traversal would spell.
    for (const key of [
      'private/secret.txt',
      'renders/../private/secret.txt',
      'renders/.env',
      'renders/./secret.txt',
      'renders/a\\b',
      'renders/sub/secret.txt',
      'renders//secret.txt',
    ])
      await bucket.put(key, SECRET);
    const routes = [
      '/r/private/secret.txt',
      '/r/renders/..%2Fprivate%2Fsecret.txt',
      '/r/renders/..%2fprivate%2fsecret.txt',
      '/r/renders/%2E%2E%2Fprivate%2Fsecret.txt',
      '/r/renders/.env',
      '/r/renders/.%2Fsecret.txt',
      '/r/renders/a%5Cb',
      '/r/renders/a%5cb',
      '/r/renders/sub/secret.txt',
      '/r/renders//secret.txt',
      '/r/renders/missing.mp4',
    ];
    for (const path of routes) {
      const response = await fetch(`${worker.url}${path}`);
      const text = await response.text();
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(text).not.toContain(SECRET);
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'not-found' } });
    }
  });
});
