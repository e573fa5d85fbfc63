import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { renderComposition } from '@seekframe/producer';
import { producerCore } from '@seekframe/producer/distributed';
import { runLocalRender } from '../src/local/run-local-render.js';
import { systemRuntime } from '@seekframe/producer/distributed';
import { renderKeys } from '@seekframe/producer/distributed';
import { getFile } from '@seekframe/producer';
import { getJson } from '@seekframe/producer/distributed';
import type { StoredPlan } from '@seekframe/producer/distributed';
import type { RenderCore } from '@seekframe/producer/distributed';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { audioSamples, bestLag, frameIndexes, seamProject, streamTypes, tempDir, videoPackets } from './support/media.js';

const FPS = 10;
const SECONDS = 3;
const FRAMES = FPS * SECONDS;

/**
 * The seams of a distributed render, end to end through the real handlers, the real render core,
 * Debian's Chromium and ffmpeg, and S3 on s3rver: the same composition as 1, 4 and 9 chunks
 * against the single-machine render of the same settings.
 */
describe('distributed render seams (1, 4 and 9 chunks vs one machine)', () => {
  let s3: LocalS3;
  let project: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  let core: RenderCore;
  let single: string;

  beforeAll(async () => {
    s3 = await startLocalS3();
    project = await seamProject({ seconds: SECONDS, fps: FPS });
    work = await tempDir('seekframe-lambda-work-');
    core = producerCore;
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
    await s3?.close();
    await project?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the single-machine reference paints every frame index and carries the chirp', async () => {
    expect(await frameIndexes(single)).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
    expect(await streamTypes(single)).toEqual(['video', 'audio']);
    const samples = await audioSamples(single);
    expect(samples.some((v) => Math.abs(v) > 8000)).toBe(true);
  });

  it.each([1, 4, 9])(
    '%i chunk(s): exact frame count, 1/fps steps, keyframes at chunk starts, frame-exact content, audio within one sample',
    async (chunks) => {
      // Count progress writes per chunk: throttled to about ten per chunk, never one per frame.
      const progressWrites = new Map<string, number>();
      const store = {
        ...s3.store,
        put: (key: string, body: Parameters<typeof s3.store.put>[1], options?: Parameters<typeof s3.store.put>[2]) => {
          if (/\/progress\/\d{5}\.json$/.test(key)) progressWrites.set(key, (progressWrites.get(key) ?? 0) + 1);
          return s3.store.put(key, body, options);
        },
      };
      const { renderId, output, progress } = await runLocalRender({
        store,
        core,
        runtime: systemRuntime(),
        workRoot: path.join(work, `lambda-${chunks}`),
        projectDir: project.dir,
        request: { quality: 'draft' },
        chunking: { chunkCount: chunks, accountConcurrency: 10 },
        maxConcurrency: 2,
      });
      const stored = (await getJson<StoredPlan>(s3.store, renderKeys(renderId).plan))!;
      expect(stored.chunks).toHaveLength(chunks);
      expect(output.frames).toBe(FRAMES);
      expect(progress).toMatchObject({
        status: 'completed',
        stage: 'done',
        framesRendered: FRAMES,
        totalFrames: FRAMES,
        chunks: { total: chunks, done: chunks, retried: 0 },
      });
      expect(progress.cost.invocations).toBe(chunks + 2);
      expect(progressWrites.size).toBe(chunks);
      for (const count of progressWrites.values()) expect(count).toBeLessThanOrEqual(12);
      if (chunks === 1) expect(progressWrites.get(renderKeys(renderId).chunkProgress(0))).toBeGreaterThanOrEqual(3);

      const file = path.join(work, `distributed-${chunks}.mp4`);
      expect(await getFile(s3.store, output.key, file)).toBe(true);
      expect(await streamTypes(file)).toEqual(['video', 'audio']);
      const packets = await videoPackets(file);
      expect(packets).toHaveLength(FRAMES);
      packets.forEach((p, i) => expect(p.pts).toBeCloseTo(i / FPS, 3));
      const keyframes = packets.flatMap((p, i) => (p.key ? [i] : []));
      expect(keyframes).toEqual(stored.chunks.map((c) => c.start));
      expect(await frameIndexes(file)).toEqual(await frameIndexes(single));

      const [reference, distributed] = await Promise.all([audioSamples(single), audioSamples(file)]);
      expect(Math.abs(distributed.length - reference.length)).toBeLessThanOrEqual(1024);
      expect(Math.abs(bestLag(reference, distributed))).toBeLessThanOrEqual(1);
    },
    600_000,
  );

  it('frames 7-21 in 3 chunks: the span of the single render, frame for frame, its sound from 0.7 s', async () => {
    const span = { start: 7, end: 21 };
    const frames = span.end - span.start + 1;
    const { renderId, output } = await runLocalRender({
      store: s3.store,
      core,
      runtime: systemRuntime(),
      workRoot: path.join(work, 'lambda-span'),
      projectDir: project.dir,
      request: { quality: 'draft', frames: span },
      chunking: { chunkCount: 3, accountConcurrency: 10 },
      maxConcurrency: 2,
    });
    const stored = (await getJson<StoredPlan>(s3.store, renderKeys(renderId).plan))!;
    // The chunks split the span's frames (output numbers), and the plan says which composition frames they are.
    expect(stored.chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 15],
    ]);
    expect(stored.plan).toMatchObject({ totalFrames: frames, frames: span });
    expect(output.frames).toBe(frames);
    const file = path.join(work, 'distributed-span.mp4');
    expect(await getFile(s3.store, output.key, file)).toBe(true);
    expect(await frameIndexes(file)).toEqual((await frameIndexes(single)).slice(span.start, span.end + 1));
    const [reference, part] = await Promise.all([audioSamples(single), audioSamples(file)]);
    expect(Math.abs(part.length - (frames / FPS) * 48_000)).toBeLessThanOrEqual(1024);
    expect(Math.abs(bestLag(reference.subarray(Math.round((span.start / FPS) * 48_000)), part))).toBeLessThanOrEqual(1);
  }, 600_000);
});
