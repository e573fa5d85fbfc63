import { rm } from 'node:fs/promises';
import path from 'node:path';
import { renderComposition } from '@seekframe/producer';
import { Job, Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { assembleJobId, chunkJobId, queueSettings, renderOnFleet, type FleetSubmitEvent } from '../src/index.js';
import { fleetStore } from '../src/fleet-store.js';
import { frameIndexes, seamProject, tempDir, videoPackets } from '../../aws-lambda/test/support/media.js';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/until.js';
import { startWorkers, stopWorkers, type WorkerProcess } from './support/worker-processes.js';

const FPS = 10;
const SECONDS = 3;
const FRAMES = FPS * SECONDS;
/** Short lock and stalled check, so a lost worker's chunk moves on within seconds (production: 30 s each). */
const FAST_STALLS = ['--lock-duration-ms', '4000', '--stalled-interval-ms', '1000'];

/**
 * The fleet under faults, with real parts only: Debian's redis-server, three `seekframe worker`
 * processes of this checkout, Chromium and ffmpeg, segments in S3 (s3rver behind the strict
 * proxy, which refuses a second create-only write as S3 does).
 */
describe('a fleet render under faults (3 worker processes, Redis, S3)', () => {
  let redis: RedisServer;
  let s3: LocalS3;
  let workers: WorkerProcess[] = [];
  let project: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  let single: string;
  const s3Env = (): NodeJS.ProcessEnv => ({
    S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
  });
  const settings = () => queueSettings({ url: redis.url, env: {} });
  const store = () => fleetStore({ store: `s3://${s3.bucket}`, env: s3Env() }).store;
  /** The seam project as 3 chunks through the fleet, with what a case adds. */
  const render = (output: string, more: Partial<Parameters<typeof renderOnFleet>[0]> = {}) =>
    renderOnFleet({
      queue: settings(),
      store: store(),
      projectDir: project.dir,
      request: { quality: 'draft' },
      chunkFrames: FRAMES / 3,
      output,
      pollMs: 500,
      ...more,
    });

  beforeAll(async () => {
    [redis, s3, project, work] = await Promise.all([
      startRedis({ persistent: true }),
      startLocalS3({ strict: true }),
      seamProject({ seconds: SECONDS, fps: FPS }),
      tempDir('seekframe-fleet-faults-'),
    ]);
    workers = await startWorkers(3, { queue: redis.url, store: `s3://${s3.bucket}`, args: FAST_STALLS, env: s3Env() });
    single = path.join(work, 'single.mp4');
    await renderComposition({
      projectDir: project.dir,
      output: single,
      quality: 'draft',
      workers: 1,
      captureMode: 'beginframe',
      network: 'sandboxed',
    });
  }, 300_000);
  afterAll(async () => {
    await stopWorkers(workers);
    await Promise.all([redis?.stop(), s3?.close(), project?.cleanup()]);
    if (work) await rm(work, { recursive: true, force: true });
  }, 120_000);

  it('a malformed job fails on its own with invalid-job; the worker that took it keeps working', async () => {
    const queue = new Queue(settings().queueName, { connection: settings().connection });
    try {
      const bad = [
        await queue.add('evil', { html: '<script>alert(1)</script>' }, { jobId: 'bad-name' }),
        await queue.add('chunk', { renderId: '../../etc', chunk: -1 }, { jobId: 'bad-data' }),
        await queue.add('assemble', 'not an object', { jobId: 'bad-shape' }),
      ];
      for (const job of bad) {
        await until(async () => (await job.getState()) === 'failed', `job ${job.id} failed`);
        const failed = (await Job.fromId(queue, job.id!))!;
        expect(JSON.parse(failed.failedReason)).toMatchObject({ code: 'invalid-job' });
        expect(failed.attemptsMade).toBe(1);
      }
      for (const worker of workers) expect(worker.log()).not.toMatch(/worker stopped/);
    } finally {
      await queue.close();
    }
  });

  it('a worker killed (SIGKILL, its browser too) mid-chunk: the stalled check gives the chunk to another worker and the video is frame-identical to the one-machine render', async () => {
    const events: FleetSubmitEvent[] = [];
    let killed: WorkerProcess | undefined;
    const output = path.join(work, 'killed.mp4');
    const result = await render(output, {
      onEvent: (event) => {
        events.push(event);
        // The first chunk a worker reports having started: that worker dies now, mid-chunk.
        if (!killed && event.type === 'chunk-progress') {
          killed = workers.find((worker) => worker.id === event.worker);
          killed?.kill('SIGKILL');
        }
      },
    });
    expect(killed).toBeDefined();
    const lostChunk = (events.find((e) => e.type === 'chunk-progress') as { chunk: number }).chunk;
    const done = events.filter((e): e is Extract<FleetSubmitEvent, { type: 'chunk-done' }> => e.type === 'chunk-done');
    // The lost chunk was finished by a worker that is still alive.
    expect(done.find((e) => e.chunk === lostChunk)?.worker).not.toBe(killed!.id);
    expect(new Set(done.map((e) => e.chunk))).toEqual(new Set([0, 1, 2]));
    expect(result.frames).toBe(FRAMES);
    expect(await frameIndexes(output)).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
    expect(await frameIndexes(output)).toEqual(await frameIndexes(single));
    const packets = await videoPackets(output);
    expect(packets).toHaveLength(FRAMES);
    expect(packets.flatMap((p, i) => (p.key ? [i] : []))).toEqual([0, 10, 20]);
    await killed!.exited;
    workers = workers.filter((worker) => worker !== killed);
    workers.push(...(await startWorkers(1, { queue: redis.url, store: `s3://${s3.bucket}`, args: FAST_STALLS, env: s3Env() })));
  }, 300_000);

  it('Redis restarted mid-render (with its data): workers and submitter reconnect and the render completes', async () => {
    let restarted: Promise<void> | undefined;
    const output = path.join(work, 'restart.mp4');
    await render(output, {
      onEvent: (event) => {
        if (!restarted && event.type === 'chunk-progress') restarted = redis.restart({ downMs: 1500 });
      },
    });
    await restarted;
    expect(await frameIndexes(output)).toEqual(await frameIndexes(single));
  }, 300_000);

  it('Redis restarted without its data: the render fails with render-lost, it never hangs', async () => {
    let restarted: Promise<void> | undefined;
    const failure = await render(path.join(work, 'lost.mp4'), {
      onEvent: (event) => {
        if (!restarted && event.type === 'chunk-progress') restarted = redis.restart({ wipe: true });
      },
    }).catch((error: unknown) => error);
    await restarted;
    expect(failure).toBeInstanceOf(SeekframeError);
    expect((failure as SeekframeError).code).toBe('render-lost');
  }, 300_000);

  it('a chunk that fails for good fails the render with its own error code, without retries', async () => {
    const failing = await seamProject({ seconds: SECONDS, fps: FPS, audio: false });
    try {
      const { writeFile, readFile } = await import('node:fs/promises');
      const html = await readFile(path.join(failing.dir, 'index.html'), 'utf8');
      await writeFile(
        path.join(failing.dir, 'index.html'),
        html.replace(
          'window.__seekframe.onSeek((t) => {',
          "window.__seekframe.onSeek((t) => {\n    if (t >= 2) throw new Error('broken at 2 s');",
        ),
      );
      const renderId = `fail${Date.now().toString(36)}`.padEnd(12, '0');
      const failure = await renderOnFleet({
        queue: settings(),
        store: store(),
        projectDir: failing.dir,
        renderId,
        chunkFrames: FRAMES / 3,
        output: path.join(work, 'failed.mp4'),
        pollMs: 500,
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SeekframeError);
      expect((failure as SeekframeError).code).toBe('page-script-error');
      const queue = new Queue(settings().queueName, { connection: settings().connection });
      try {
        const chunk = (await Job.fromId(queue, chunkJobId(renderId, 2)))!;
        expect(await chunk.getState()).toBe('failed');
        expect(chunk.attemptsMade).toBe(1);
        expect(await (await Job.fromId(queue, assembleJobId(renderId)))!.getState()).toBe('failed');
      } finally {
        await queue.close();
      }
    } finally {
      await failing.cleanup();
    }
  }, 300_000);

  it('a cancel stops every chunk: running ones abort, waiting ones fail at once, no output', async () => {
    const controller = new AbortController();
    const output = path.join(work, 'cancelled.mp4');
    const renderId = `cancel${Date.now().toString(36)}`.padEnd(14, '0');
    const failure = await renderOnFleet({
      queue: settings(),
      store: store(),
      projectDir: project.dir,
      renderId,
      chunkFrames: FRAMES / 6,
      output,
      pollMs: 500,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'chunk-progress') controller.abort(new Error('test cancel'));
      },
    }).catch((error: unknown) => error);
    expect((failure as SeekframeError).code).toBe('render-cancelled');
    const queue = new Queue(settings().queueName, { connection: settings().connection });
    try {
      // Every chunk ends (none keeps rendering or waiting); at most the ones that beat the cancel completed.
      await until(async () => {
        const states = await Promise.all(
          Array.from({ length: 6 }, async (_, i) => (await Job.fromId(queue, chunkJobId(renderId, i)))?.getState()),
        );
        return states.every((state) => state === 'failed' || state === 'completed');
      }, 'every chunk of the cancelled render ended');
      const reasons = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => (await Job.fromId(queue, chunkJobId(renderId, i)))!.failedReason),
      );
      expect(reasons.filter(Boolean).map((r) => JSON.parse(r).code)).toContain('render-cancelled');
    } finally {
      await queue.close();
    }
    const { stat } = await import('node:fs/promises');
    expect(await stat(output).catch(() => null)).toBeNull();
  }, 300_000);
});
