import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, type ProducerServer } from '../src/index.js';
import { childProcesses } from './helpers/child-processes.js';
import { getJson, streamRender, tinyComposition } from './helpers/server-client.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;
let cold: ProducerServer;

beforeAll(async () => {
  project = await tempProject({
    'tiny/index.html': tinyComposition(),
    // The main thread never comes back from the second seek: the render kills that browser.
    'spin-seek/index.html': composition({
      width: 32,
      height: 32,
      duration: 0.3,
      fps: 10,
      body: '<div>x</div><script>window.__seekframe.onSeek((t) => { if (t > 0) { while (true) {} } });</script>',
    }),
  });
  server = await createProducerServer({
    port: 0,
    root: project.dir,
    maxConcurrentRenders: 1,
    warmBrowsers: 1,
    browserIdleSeconds: 600,
    pageTimeoutMs: 3_000,
    env: {},
  });
  cold = await createProducerServer({ port: 0, root: project.dir, env: { PRODUCER_WARM_BROWSERS: '0' } });
});
afterAll(async () => {
  await Promise.all([server?.close(), cold?.close()]);
  await project?.cleanup();
});

type Health = {
  browserPool: null | {
    browsers: number;
    idle: number;
    leased: number;
    launched: number;
    reused: number;
    replaced: number;
    openedAhead: number;
    maxBrowsers: number;
    idleCloseMs: number;
    rssBytes: number;
  };
};

describe('producer server warm browser pool', () => {
  it('serves consecutive (sandboxed) renders from one warm browser, and /health reports the pool', async () => {
    for (let i = 0; i < 3; i++) {
      const events = await streamRender(server.url, { projectDir: 'tiny', workers: 1 }).done;
      expect(events.at(-1)?.type).toBe('complete');
    }
    const health = await getJson<Health>(`${server.url}/health`);
    // Renders 2 and 3 got the context (behind its proxy relay) that was opened beside the render before.
    expect(health.body.browserPool).toMatchObject({
      maxBrowsers: 1,
      idleCloseMs: 600_000,
      browsers: 1,
      idle: 1,
      leased: 0,
      launched: 1,
      reused: 2,
      replaced: 0,
      openedAhead: 2,
    });
    expect(health.body.browserPool!.rssBytes).toBeGreaterThan(0);
    expect(server.browserPool()).toMatchObject({ launched: 1 });
  });

  it('a browser a render had to kill (page stopped answering) is replaced, never handed to the next render', async () => {
    const before = server.browserPool()!;
    expect(before.browsers).toBe(1); // warm from the test above
    const browserPids = async (): Promise<number[]> => (await childProcesses(/chrom/)).sort();
    const warmPids = await browserPids();
    const failed = (await streamRender(server.url, { projectDir: 'spin-seek', workers: 1 }).done).at(-1) as {
      type: string;
      error: { code: string };
    };
    expect(failed.type).toBe('error');
    expect(failed.error.code).toBe('page-unresponsive');
    expect(server.browserPool()).toMatchObject({ browsers: 0, replaced: before.replaced + 1, reused: before.reused + 1 });
    for (const pid of warmPids) expect(await browserPids()).not.toContain(pid); // the killed browser's processes are gone
    const next = (await streamRender(server.url, { projectDir: 'tiny', workers: 1 }).done).at(-1);
    expect(next?.type).toBe('complete');
    expect(server.browserPool()).toMatchObject({ browsers: 1, launched: before.launched + 1 });
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
