import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { SeekframeError } from '@seekframe/composition';
import { loadProducerCore } from '../src/producer-core.js';
import { runLocalRender } from '../src/local/run-local-render.js';
import { lambdaRuntime } from '../src/runtime/lambda-runtime.js';
import { createFolderObjectStore } from '../src/storage/folder-object-store.js';
import { getJson } from '../src/storage/object-store.js';
import { renderKeys } from '../src/storage/layout.js';
import type { StoredPlan } from '../src/handlers/handler-deps.js';
import { audioSamples, bestLag, frameIndexes, seamProject, streamTypes, tempDir, videoPackets } from './support/media.js';

/**
 * The Lambda runtime as deployed: Chromium from @sparticuz/chromium 147 (inflated into the temp
 * folder, launched as a headless shell with the begin-frame flags) and the ffmpeg/ffprobe
 * binaries shipped inside @ffmpeg-installer/linux-x64 and @ffprobe-installer/linux-x64, or an
 * ffmpeg named by SEEKFRAME_FFMPEG (on Lambda: a layer).
 */
describe('chunks rendered with the Lambda runtime (@sparticuz/chromium)', () => {
  let silent: Awaited<ReturnType<typeof seamProject>>;
  let sound: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  beforeAll(async () => {
    silent = await seamProject({ seconds: 2, fps: 10, audio: false });
    sound = await seamProject({ seconds: 2, fps: 10 });
    work = await tempDir('seekframe-lambda-sparticuz-');
  }, 60_000);
  afterAll(async () => {
    await silent?.cleanup();
    await sound?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const render = async (name: string, projectDir: string, runtime: ReturnType<typeof lambdaRuntime>) => {
    const store = createFolderObjectStore(path.join(work, name));
    const result = await runLocalRender({ store, core: await loadProducerCore(), runtime, workRoot: path.join(work, `${name}-tmp`), projectDir, request: { quality: 'draft' }, chunking: { chunkCount: 3 }, maxConcurrency: 1, sleep: async () => undefined });
    const stored = (await getJson<StoredPlan>(store, renderKeys(result.renderId).plan))!;
    const file = path.join(work, `${name}.mp4`);
    await store.getFile(result.output.key, file);
    return { stored, file };
  };

  it('packaged binaries: probes beginFrame, records the binaries in the plan and renders frame-exact chunks', async () => {
    const runtime = lambdaRuntime();
    const browser = await runtime.browser();
    expect(browser).toMatchObject({ kind: 'headless-shell', supportsBeginFrame: true });
    expect(browser.version).toMatch(/^147\./);
    expect(browser.extraArgs).toContain('--single-process');
    expect(browser.extraArgs).not.toContain('--disable-web-security');
    const ffmpeg = await runtime.ffmpeg();
    expect(ffmpeg.ffmpeg).toMatch(/@ffmpeg-installer|seekframe-bin/);

    const { stored, file } = await render('packaged', silent.dir, runtime);
    expect(stored.plan.versions).toMatchObject({ chromium: browser.version, ffmpeg: ffmpeg.version });
    expect(await frameIndexes(file)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await videoPackets(file)).flatMap((p, i) => (p.key ? [i] : []))).toEqual(stored.chunks.map((c) => c.start));
  }, 600_000);

  it('packaged ffmpeg (a 2018 build) mixes the sound once and the chunks join with it: audio stream, frame-exact video, tone where the system ffmpeg puts it', async () => {
    const runtime = lambdaRuntime();
    expect((await runtime.ffmpeg()).ffmpeg).toMatch(/@ffmpeg-installer|seekframe-bin/);
    const { file } = await render('packaged-sound', sound.dir, runtime);
    expect(await streamTypes(file)).toEqual(['video', 'audio']);
    expect(await frameIndexes(file)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const current = await render('system-sound', sound.dir, lambdaRuntime({ env: { ...process.env, SEEKFRAME_FFMPEG: '/usr/bin/ffmpeg', SEEKFRAME_FFPROBE: '/usr/bin/ffprobe' } }));
    // Different AAC encoders (4.1 vs the system's), the same mix: the tone sits on the same sample.
    expect(Math.abs(bestLag(await audioSamples(file), await audioSamples(current.file)))).toBeLessThanOrEqual(1);
  }, 600_000);
});
