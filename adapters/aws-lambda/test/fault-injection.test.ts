import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { SeekframeError } from '@seekframe/composition';
import { producerCore } from '@seekframe/producer/distributed';
import { runLocalRender } from '../src/local/run-local-render.js';
import { planHandler } from '../src/handlers/plan-handler.js';
import { getFile } from '@seekframe/producer';
import { startLambdaRender } from '../src/api/lambda-render-api.js';
import { systemRuntime, type RenderRuntime } from '@seekframe/producer/distributed';
import { newRenderId, renderKeys } from '@seekframe/producer/distributed';
import { getJson, listKeys } from '@seekframe/producer/distributed';
import type { FinalStatus } from '../src/progress/progress-records.js';
import type { StoredPlan } from '@seekframe/producer/distributed';
import type { RenderCore } from '@seekframe/producer/distributed';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { frameIndexes, seamProject, tempDir } from './support/media.js';

/**
 * Faults injected into real renders (real core, Chromium, ffmpeg, s3rver): the local runner must
 * retry what the table calls transient, stop at once on what it calls fatal, and fail a stuck
 * chunk within a bounded time; the plan step must be idempotent on a store that honours
 * If-None-Match.
 */
describe('distributed render faults', () => {
  let s3: LocalS3;
  let project: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  let core: RenderCore;
  const noSleep = async () => undefined;

  beforeAll(async () => {
    s3 = await startLocalS3({ strict: true });
    project = await seamProject({ seconds: 2, fps: 10 });
    work = await tempDir('seekframe-lambda-faults-');
    core = producerCore;
  }, 120_000);
  afterAll(async () => {
    await s3?.close();
    await project?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const base = () => ({
    store: s3.store,
    runtime: systemRuntime(),
    projectDir: project.dir,
    request: { quality: 'draft' as const },
    chunking: { chunkCount: 2 },
    maxConcurrency: 2,
    sleep: noSleep,
  });

  it('retries a transient failure (a crashed browser) and then succeeds, counting the retry and its cost', async () => {
    let thrown = 0;
    const flaky: RenderCore = {
      ...core,
      renderFrames: async (plan, range, target, context) => {
        if (range.start > 0 && thrown === 0) {
          thrown++;
          throw new SeekframeError('browser-crashed', 'The browser crashed (Target closed).', { stage: 'browser', retryable: true });
        }
        return core.renderFrames(plan, range, target, context);
      },
    };
    const { renderId, output, progress } = await runLocalRender({ ...base(), core: flaky, workRoot: path.join(work, 'transient') });
    expect(thrown).toBe(1);
    expect(progress).toMatchObject({ status: 'completed', chunks: { total: 2, done: 2, retried: 1 }, failedAttempts: 1 });
    expect(progress.cost.invocations).toBe(5);
    expect(await getJson(s3.store, renderKeys(renderId).error('00001', 0))).toMatchObject({
      kind: 'transient',
      error: { code: 'browser-crashed' },
    });
    const file = path.join(work, 'transient.mp4');
    await getFile(s3.store, output.key, file);
    expect(await frameIndexes(file)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  }, 300_000);

  it('a chunk\'s last progress event delivered while its final record is written does not undo "done"', async () => {
    // What a loaded machine did once: the capture's last progress event (all frames) reached the
    // handler only after the chunk had finished, queued a done: false record behind the final one,
    // and the completed render reported 3 of 4 chunks done.
    const late = new Map<number, () => void>();
    const lateCore: RenderCore = {
      ...core,
      renderFrames: async (plan, range, target, context) => {
        const result = await core.renderFrames(plan, range, target, context);
        late.set(range.start, () => context.onEvent?.({ type: 'progress', framesRendered: range.end - range.start }));
        return result;
      },
    };
    const store = {
      ...s3.store,
      put: async (key: string, body: Parameters<typeof s3.store.put>[1], options?: Parameters<typeof s3.store.put>[2]) => {
        const written = await s3.store.put(key, body, options);
        if (/\/progress\/\d{5}\.json$/.test(key) && typeof body === 'string' && (JSON.parse(body) as { done?: boolean }).done) {
          for (const deliver of late.values()) deliver();
        }
        return written;
      },
    };
    const { progress } = await runLocalRender({ ...base(), store, core: lateCore, workRoot: path.join(work, 'late-progress') });
    expect(late.size).toBe(2);
    expect(progress).toMatchObject({ status: 'completed', chunks: { total: 2, done: 2, retried: 0 } });
  }, 300_000);

  it('never retries a deterministic failure (ffmpeg differs from the plan) and records it in status.json', async () => {
    const system = systemRuntime();
    let chunkCalls = 0;
    let planned = false;
    const drifting: RenderRuntime = {
      browser: system.browser,
      ffmpeg: async () => {
        const info = await system.ffmpeg();
        return planned ? { ...info, version: 'N-0-other-build' } : info;
      },
    };
    const counting: RenderCore = {
      ...core,
      planRender: async (spec, context) => {
        const plan = await core.planRender(spec, context);
        planned = true;
        return plan;
      },
      renderFrames: (...args) => (chunkCalls++, core.renderFrames(...args)),
    };
    const error = await runLocalRender({ ...base(), runtime: drifting, core: counting, workRoot: path.join(work, 'fatal') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeekframeError);
    expect((error as SeekframeError).code).toBe('version-mismatch');
    expect((error as SeekframeError).message).toContain('N-0-other-build');
    expect(chunkCalls).toBe(0);
    const ids = (await listKeys(s3.store, 'renders/')).filter((k) => k.endsWith('/status.json'));
    const statuses = await Promise.all(ids.map((k) => getJson<FinalStatus>(s3.store, k)));
    expect(statuses.some((s) => s?.status === 'failed' && s.error?.code === 'version-mismatch' && s.error.retryable === false)).toBe(true);
  }, 300_000);

  it('fails a render whose chunk hangs within a bounded time (the chunk timeout, one retry), stopping the stuck render', async () => {
    let aborted = 0;
    const stuck: RenderCore = {
      ...core,
      renderFrames: (plan, range, target, context) => {
        if (range.start === 0) return core.renderFrames(plan, range, target, context);
        return new Promise((_, reject) =>
          context.signal?.addEventListener('abort', () => (aborted++, reject(new Error('aborted'))), { once: true }),
        );
      },
    };
    const started = Date.now();
    const error = await runLocalRender({
      ...base(),
      core: stuck,
      workRoot: path.join(work, 'timeout'),
      timeouts: { plan: 120_000, renderChunk: 5_000, assemble: 120_000 },
    }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect((error as SeekframeError).code).toBe('chunk-timeout');
    expect(aborted).toBe(2);
    // plan + two 5 s attempts of the stuck chunk: far below anything like "hangs forever"
    expect(elapsed).toBeLessThan(120_000);
  }, 300_000);

  it('a racing second plan step keeps the first plan (plan.json is written with If-None-Match)', async () => {
    const service = {
      store: s3.store,
      startWorkflow: async () => undefined,
      chunking: { chunkCount: 2 },
      chunkTimeoutSeconds: 900,
      defaultProjectDir: project.dir,
    };
    const { id } = await startLambdaRender(service, { id: newRenderId(), request: { quality: 'draft' } });
    const keys = renderKeys(id);
    const deps = { store: s3.store, core, runtime: systemRuntime(), workRoot: path.join(work, 'idempotent'), memoryMb: 2048 };
    const first = await planHandler(deps, { renderId: id, attempt: 0 });
    const stored = await getJson<StoredPlan>(s3.store, keys.plan);
    // The second attempt does not see plan.json yet (it read before the first one wrote), so it
    // plans again (a new clock epoch, so a new hash) and must lose the conditional write.
    let hidden = false;
    const racing = {
      ...s3.store,
      get: async (key: string, range?: Parameters<typeof s3.store.get>[1]) => {
        if (key === keys.plan && !hidden) {
          hidden = true;
          return null;
        }
        return s3.store.get(key, range);
      },
    };
    // Its plan differs (planned at another moment): give it a visibly different hash.
    const otherPlan: RenderCore = {
      ...core,
      planRender: async (spec, context) => ({ ...(await core.planRender(spec, context)), hash: 'f'.repeat(64) }),
    };
    const again = await planHandler({ ...deps, core: otherPlan, store: racing }, { renderId: id, attempt: 1 });
    expect(hidden).toBe(true);
    expect(again).toEqual(first);
    expect(await getJson<StoredPlan>(s3.store, keys.plan)).toEqual(stored);
  }, 300_000);

  it('RENDER_MAX_FRAMES holds for a start by direct invoke too: the plan step refuses a render over it (limit-exceeded, not retried)', async () => {
    const service = {
      store: s3.store,
      startWorkflow: async () => undefined,
      chunking: { chunkCount: 2 },
      chunkTimeoutSeconds: 900,
      defaultProjectDir: project.dir,
      limits: { maxFrames: 15 },
    };
    // The project is 2 s at 10 fps: 20 frames. The API cannot know that (no composition to read).
    const { id } = await startLambdaRender(service, { id: newRenderId(), request: { quality: 'draft' } });
    const deps = { store: s3.store, core, runtime: systemRuntime(), workRoot: path.join(work, 'frame-cap'), memoryMb: 2048 };
    const error = (await planHandler(deps, { renderId: id, attempt: 0 }).catch((e: unknown) => e)) as Error;
    // What the state machine sees: a fatal failure (no retry) carrying the error as JSON.
    expect(error.name).toBe('Seekframe.Fatal');
    expect(JSON.parse(error.message)).toMatchObject({ code: 'limit-exceeded', details: { limit: 'maxFrames', value: 20, max: 15 } });
    expect(await s3.store.head(renderKeys(id).plan)).toBeNull();
    // Without the cap the same project plans.
    const open = await startLambdaRender({ ...service, limits: {} }, { id: newRenderId(), request: { quality: 'draft' } });
    await expect(planHandler(deps, { renderId: open.id, attempt: 0 })).resolves.toMatchObject({ renderId: open.id });
  }, 300_000);

  it('a plan retry that finds plan.json without its audio (the writer died in between) mixes the audio again', async () => {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    const service = {
      store: s3.store,
      startWorkflow: async () => undefined,
      chunking: { chunkCount: 2 },
      chunkTimeoutSeconds: 900,
      defaultProjectDir: project.dir,
    };
    const { id } = await startLambdaRender(service, { id: newRenderId(), request: { quality: 'draft' } });
    const keys = renderKeys(id);
    const deps = { store: s3.store, core, runtime: systemRuntime(), workRoot: path.join(work, 'audio-retry'), memoryMb: 2048 };
    const first = await planHandler(deps, { renderId: id, attempt: 0 });
    const size = (await s3.store.head(keys.audio))?.size;
    expect(size).toBeGreaterThan(0);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: keys.audio }));
    expect(await s3.store.head(keys.audio)).toBeNull();
    expect(await planHandler(deps, { renderId: id, attempt: 1 })).toEqual(first);
    expect((await s3.store.head(keys.audio))?.size).toBe(size);
  }, 300_000);
});
