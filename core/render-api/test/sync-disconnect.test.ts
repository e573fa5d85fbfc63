import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutCli } from '@seekframe/render-api/contract-suite';
import { gatedCompositionDir, serveLocal, type LocalRenderApi } from '@seekframe/render-api/node';

/**
 * The client of a synchronous `POST /api/render` never learns the job id; when it disconnects
 * mid-render the API cancels the render and frees its slot. The gated composition stays in
 * capture until cancelled.
 */

let dir: string;
let api: LocalRenderApi;
let next = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-api-disconnect-'));
  await mkdir(path.join(dir, 'work'));
  api = await serveLocal({
    compositionDir: gatedCompositionDir(),
    maxConcurrentRenders: 1,
    newId: () => `job-${++next}`,
    runner: { cli: checkoutCli(), workers: 1, tempDir: path.join(dir, 'work') },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const status = async (id: string): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${api.url}/api/render/${id}`);
  return { status: response.status, json: await response.json() };
};
const startAsync = (): Promise<Response> =>
  fetch(`${api.url}/api/render`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'respond-async' }, body: '{}' });

it('a synchronous POST /api/render whose client disconnects mid-render: the render is cancelled and its slot freed', {
  timeout: 180_000,
}, async () => {
  const client = new AbortController();
  const waiting = fetch(`${api.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: client.signal,
  }).catch((error: unknown) => error);
  await expect.poll(async () => (await status('job-1')).json.stage, { timeout: 120_000, interval: 200 }).toBe('capture');
  // The one slot is taken: another render is refused.
  expect((await startAsync()).status).toBe(429);
  expect(await readdir(path.join(dir, 'work'))).toHaveLength(1);

  client.abort();
  expect(await waiting).toMatchObject({ name: 'AbortError' });

  await expect.poll(async () => (await status('job-1')).status, { timeout: 30_000, interval: 200 }).toBe(409);
  expect((await status('job-1')).json.error).toMatchObject({ code: 'render-cancelled' });
  // The CLI stopped and its temp folder is gone; the slot takes a new render.
  await expect.poll(async () => readdir(path.join(dir, 'work')), { timeout: 30_000, interval: 200 }).toEqual([]);
  const again = await startAsync();
  expect(again.status).toBe(202);
  const { id } = (await again.json()) as { id: string };
  await expect.poll(async () => (await status(id)).json.stage, { timeout: 120_000, interval: 200 }).toBe('capture');
  expect((await fetch(`${api.url}/api/render/${id}`, { method: 'DELETE' })).status).toBe(202);
});
