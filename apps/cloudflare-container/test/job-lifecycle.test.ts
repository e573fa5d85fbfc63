import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startLocalWorker as startWorker } from '../local/local-worker.js';
import { TINY_COMPOSITION } from './helpers/start-render-server.js';
import { startLocalWorker } from './helpers/start-local-worker.js';

/**
 * What a job's Durable Object does on its own, with no request arriving: the watchdog alarm fails a
 * render whose renderer went silent (and frees it), and the retention alarm deletes the file from R2.
 */
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!();
});

/** A renderer that accepts a job, says it started, then never answers again (a hung or lost container). */
async function startSilentRenderer(): Promise<{ url: string; deleted: string[]; close(): Promise<void> }> {
  const deleted: string[] = [];
  const app = new Hono();
  app.put('/jobs/:id', (c) => c.json({ id: c.req.param('id') }, 201));
  app.post('/jobs/:id/render', () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${JSON.stringify({ type: 'stage', stage: 'capture' })}\n`));
        // ...and nothing more, ever.
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
  });
  app.delete('/jobs/:id', (c) => {
    deleted.push(c.req.param('id'));
    return c.json({ released: true });
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        deleted,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

describe('job Durable Object on its own (alarms, a cancel during start)', () => {
  it('the watchdog fails a render whose renderer went silent with render-timeout, and frees the renderer', async () => {
    const renderer = await startSilentRenderer();
    stops.push(renderer.close);
    const worker = await startWorker({
      compositionDir: TINY_COMPOSITION,
      containerUrl: renderer.url,
      vars: { RENDER_MAX_SECONDS: '1', RENDER_WATCHDOG_GRACE_SECONDS: '1' },
    });
    stops.push(worker.stop);
    const started = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async' },
      body: '{}',
    });
    expect(started.status).toBe(202);
    const { id, statusUrl } = (await started.json()) as { id: string; statusUrl: string };
    let answer = await fetch(`${worker.url}${statusUrl}`);
    const deadline = Date.now() + 60_000;
    while (answer.status === 202 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await fetch(`${worker.url}${statusUrl}`);
    }
    expect(answer.status).toBe(504);
    expect(await answer.json()).toMatchObject({ error: { code: 'render-timeout', retryable: true } });
    expect(renderer.deleted).toContain(id);
  }, 90_000);

  it('a cancel that arrives while the renderer is still starting stops the job before it renders', async () => {
    const calls: string[] = [];
    const app = new Hono();
    app.put('/jobs/:id', async (c) => {
      calls.push('PUT');
      await new Promise((resolve) => setTimeout(resolve, 2000)); // a cold start
      return c.json({ id: c.req.param('id') }, 201);
    });
    app.post('/jobs/:id/render', (c) => {
      calls.push('POST render');
      return c.body(`${JSON.stringify({ type: 'error', error: { code: 'render-failed', message: 'test renderer', retryable: false } })}\n`);
    });
    app.delete('/jobs/:id', (c) => {
      calls.push('DELETE');
      return c.json({ released: true });
    });
    const renderer = await new Promise<{ url: string; close(): Promise<void> }>((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve({ url: `http://127.0.0.1:${info.port}`, close: () => new Promise<void>((done) => server.close(() => done())) }),
      );
    });
    stops.push(renderer.close);
    const worker = await startWorker({ compositionDir: TINY_COMPOSITION, containerUrl: renderer.url });
    stops.push(worker.stop);
    const started = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async' },
      body: '{}',
    });
    const { statusUrl } = (await started.json()) as { statusUrl: string };
    await expect.poll(() => calls.includes('PUT'), { timeout: 10_000, interval: 50 }).toBe(true);
    expect((await fetch(`${worker.url}${statusUrl}`, { method: 'DELETE' })).status).toBe(202);
    // The start finishes after the cancel: the job releases its renderer again and never renders.
    await expect.poll(() => calls.filter((call) => call === 'DELETE').length, { timeout: 15_000, interval: 100 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(calls).not.toContain('POST render');
    expect((await fetch(`${worker.url}${statusUrl}`)).status).toBe(409);
  }, 90_000);

  it('past RENDER_RETENTION_SECONDS the status URL answers 410 and the file is deleted from R2', async () => {
    // Long enough for the render to finish first on a busy machine.
    const worker = await startLocalWorker({ compositionDir: TINY_COMPOSITION, vars: { RENDER_RETENTION_SECONDS: '20' } });
    stops.push(worker.stop);
    const response = await fetch(`${worker.url}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'respond-async' },
      body: '{}',
    });
    const { id } = (await response.json()) as { id: string };
    const key = `renders/${id}.mp4`;
    const bucket = await worker.mf.getR2Bucket('RENDERS');
    await expect.poll(async () => (await bucket.head(key)) !== null, { timeout: 20_000, interval: 250 }).toBe(true);
    await expect.poll(async () => (await fetch(`${worker.url}/api/render/${id}`)).status, { timeout: 40_000, interval: 500 }).toBe(410);
    await expect.poll(async () => (await bucket.head(key)) === null, { timeout: 30_000, interval: 500 }).toBe(true);
  }, 90_000);
});
