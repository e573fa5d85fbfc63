import { afterAll, beforeAll, expect, it } from 'vitest';
import { TINY_COMPOSITION } from './helpers/start-render-server.js';
import { startLocalWorker, type LocalWorker } from './helpers/start-local-worker.js';

/** A Worker has no start to refuse: with a blank RENDER_API_TOKEN every route answers the setting's error, none serves. */
let worker: LocalWorker;

beforeAll(async () => {
  worker = await startLocalWorker({ compositionDir: TINY_COMPOSITION, vars: { RENDER_API_TOKEN: '   ' } });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

it('RENDER_API_TOKEN of spaces: 500 invalid-server-options on every route, the API is never served without auth', async () => {
  for (const route of ['/api/composition', '/', '/api/render/anything']) {
    const response = await fetch(`${worker.url}${route}`);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect({ route, status: response.status, code: body.error.code }).toEqual({ route, status: 500, code: 'invalid-server-options' });
    expect(body.error.message).toMatch(/RENDER_API_TOKEN is set but blank/);
  }
  const post = await fetch(`${worker.url}/api/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(post.status).toBe(500);
});
