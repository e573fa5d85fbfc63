import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { createBrowserPool, launchBrowser, type BrowserPool } from '@seekframe/engine';
import { getFile } from '@seekframe/producer';
import { producerCore } from '@seekframe/producer/distributed';
import { runLocalRender } from '../src/local/run-local-render.js';
import { systemRuntime } from '@seekframe/producer/distributed';
import type { RenderCore } from '@seekframe/producer/distributed';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { frameIndexes, seamProject, tempDir } from './support/media.js';

/**
 * A warm Lambda instance renders chunk after chunk in one process: with the handler's browser
 * pool (lambda-entry.ts keeps one per instance), the later chunks lease the browser the first
 * one started, each in a fresh context, and the joined video is still frame-exact.
 */
describe('chunks on a warm instance', () => {
  let s3: LocalS3;
  let project: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  let core: RenderCore;
  let pool: BrowserPool;
  let launches = 0;

  beforeAll(async () => {
    s3 = await startLocalS3();
    project = await seamProject({ seconds: 3, fps: 10, audio: false });
    work = await tempDir('seekframe-lambda-warm-');
    core = producerCore;
    pool = createBrowserPool({
      maxBrowsers: 1,
      launch: (options) => {
        launches++;
        return launchBrowser(options);
      },
    });
  }, 120_000);
  afterAll(async () => {
    await pool?.close();
    await s3?.close();
    await project?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('starts one browser for three chunks run one after another, and joins them frame-exact', async () => {
    const { output, progress } = await runLocalRender({
      store: s3.store,
      core,
      runtime: systemRuntime(),
      projectDir: project.dir,
      request: { quality: 'draft' },
      chunking: { chunkCount: 3 },
      maxConcurrency: 1,
      workRoot: path.join(work, 'root'),
      browsers: pool,
    });
    expect(progress).toMatchObject({ status: 'completed', chunks: { total: 3, done: 3 } });
    expect(launches).toBe(1);
    // Chunks 2 and 3 also got the context (behind the sandbox's relay) opened while the chunk before rendered.
    expect(pool.stats()).toMatchObject({ launched: 1, reused: 2, replaced: 0, leased: 0, browsers: 1, openedAhead: 2 });
    const file = path.join(work, 'warm.mp4');
    expect(await getFile(s3.store, output.key, file)).toBe(true);
    expect(await frameIndexes(file)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  }, 300_000);
});
