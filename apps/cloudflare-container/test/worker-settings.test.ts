import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_COMPOSITION } from './helpers/start-render-server.js';
import { startLocalWorker, type LocalWorker } from './helpers/start-local-worker.js';

/**
 * A Worker's environment is its bindings (wrangler.jsonc vars, `wrangler secret put`): the render
 * API reads its settings there, with nothing passed in code. A Worker has no start to refuse, so a
 * setting set but unusable answers every route with its error and serves nothing.
 */
describe('RENDER_API_TOKEN only in the bindings', () => {
  let worker: LocalWorker;
  beforeAll(async () => {
    worker = await startLocalWorker({ compositionDir: TINY_COMPOSITION, vars: { RENDER_API_TOKEN: 'worker-binding-token-8e' } });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
  });

  it('every API route answers 401 without the token and serves with it; the preview page needs none', async () => {
    const without = await fetch(`${worker.url}/api/composition`);
    expect(without.status).toBe(401);
    expect(((await without.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const post = await fetch(`${worker.url}/api/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(401);
    await post.arrayBuffer();
    const served = await fetch(`${worker.url}/api/composition`, { headers: { authorization: 'Bearer worker-binding-token-8e' } });
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    const page = await fetch(`${worker.url}/`);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
  });
});

describe('a setting set but unusable', () => {
  let worker: LocalWorker;
  beforeAll(async () => {
    worker = await startLocalWorker({ compositionDir: TINY_COMPOSITION, vars: { RENDER_API_TOKEN: '   ', RENDER_MAX_FRAMES: 'lots' } });
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
});
