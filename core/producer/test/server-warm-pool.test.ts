import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, type ProducerServer } from '../src/index.js';
import { getJson, streamRender, tinyComposition } from './helpers/server-client.js';
import { tempProject } from './helpers/temp-project.js';

let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;
let cold: ProducerServer;

beforeAll(async () => {
  project = await tempProject({ 'tiny/index.html': tinyComposition() });
  server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 1, warmBrowsers: 1, browserIdleSeconds: 600, env: {} });
  cold = await createProducerServer({ port: 0, root: project.dir, env: { PRODUCER_WARM_BROWSERS: '0' } });
});
afterAll(async () => {
  await Promise.all([server?.close(), cold?.close()]);
  await project?.cleanup();
});

type Health = { browserPool: null | { browsers: number; idle: number; leased: number; launched: number; reused: number; replaced: number; maxBrowsers: number; idleCloseMs: number; rssBytes: number } };

describe('producer server warm browser pool', () => {
  it('serves consecutive (sandboxed) renders from one warm browser, and /health reports the pool', async () => {
    for (let i = 0; i < 3; i++) {
      const events = await streamRender(server.url, { projectDir: 'tiny', workers: 1 }).done;
      expect(events.at(-1)?.type).toBe('complete');
    }
    const health = await getJson<Health>(`${server.url}/health`);
    expect(health.body.browserPool).toMatchObject({ maxBrowsers: 1, idleCloseMs: 600_000, browsers: 1, idle: 1, leased: 0, launched: 1, reused: 2, replaced: 0 });
    expect(health.body.browserPool!.rssBytes).toBeGreaterThan(0);
    expect(server.browserPool()).toMatchObject({ launched: 1 });
  });

  it('PRODUCER_WARM_BROWSERS=0 turns the pool off (/health says null)', async () => {
    expect((await getJson<Health>(`${cold.url}/health`)).body.browserPool).toBeNull();
    expect(cold.config.warmBrowsers).toBe(0);
  });

  it('closes the warm browsers when the server closes', async () => {
    await server.close();
    expect(server.browserPool()).toMatchObject({ browsers: 0 });
  });
});
