import { afterAll, beforeAll, expect, it } from 'vitest';
import { gatedCompositionDir } from '@seekframe/render-api/node';
import { startLocalWorker, type LocalWorker } from './helpers/start-local-worker.js';

/**
 * In the Workers runtime (Miniflare, with wrangler.jsonc's `enable_request_signal` flag): the
 * client of a synchronous POST /api/render disconnects mid-render; the render is cancelled, the
 * container's slot and the job's place under RENDER_MAX_CONCURRENT are freed.
 */
let worker: LocalWorker;

beforeAll(async () => {
  worker = await startLocalWorker({
    compositionDir: gatedCompositionDir(),
    vars: { RENDER_MAX_CONCURRENT: '1' },
    container: { maxConcurrent: 1 },
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

const activeOnContainer = async (): Promise<number> =>
  ((await (await fetch(`${worker.containerUrl}/health`)).json()) as { activeJobs: number }).activeJobs;

it('a synchronous POST /api/render whose client disconnects: the container stops the render and both slots are free again', {
  timeout: 180_000,
}, async () => {
  const client = new AbortController();
  const waiting = fetch(`${worker.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: client.signal,
  }).catch((error: unknown) => error);
  await expect.poll(activeOnContainer, { timeout: 60_000, interval: 200 }).toBe(1);
  client.abort();
  expect(await waiting).toMatchObject({ name: 'AbortError' });
  await expect.poll(activeOnContainer, { timeout: 60_000, interval: 200 }).toBe(0);

  // RENDER_MAX_CONCURRENT=1 takes a new render, and the container runs it.
  const again = await fetch(`${worker.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: '{}',
  });
  expect(again.status).toBe(202);
  const { statusUrl } = (await again.json()) as { statusUrl: string };
  await expect.poll(activeOnContainer, { timeout: 60_000, interval: 200 }).toBe(1);
  expect((await fetch(`${worker.url}${statusUrl}`, { method: 'DELETE' })).status).toBe(202);
  await expect.poll(activeOnContainer, { timeout: 60_000, interval: 200 }).toBe(0);
});
