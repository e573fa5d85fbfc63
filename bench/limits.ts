/**
 * The machine's limit for one composition, measured in one run: capture-only CPU per frame
 * (browser + Node, frames kept in memory), encode-only CPU per frame for each quality preset
 * (the same frames fed straight into ffmpeg), then a real render per preset. Prints
 *
 *   limit fps = cores / (capture CPU + encode CPU per frame)
 *
 * and the render's fps as a share of that limit. Nothing here is asserted: it is a measurement.
 *
 *   npx tsx bench/limits.ts                       # bench/compositions/showcase-1080p, 3 presets
 *   npx tsx bench/limits.ts --json
 *   npx tsx bench/limits.ts --dir compositions/ui-3d-reveal --presets standard --workers 2
 *
 * Uses the built packages (run `npx turbo run build` first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompositionMetadata } from '@seekframe/composition';
import { createFrameEncoder, findBrowser, renderFramePool, sampleProcessTree } from '@seekframe/engine';
import { createProjectServer, createRuntimeInjector, frameTime, loadRuntimeSource, measureRender } from '@seekframe/producer';

type Preset = 'draft' | 'standard' | 'high';
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const projectDir = resolve(repoRoot, arg('--dir') ?? 'bench/compositions/showcase-1080p');
const presets = (arg('--presets') ?? 'draft,standard,high').split(',') as Preset[];
const json = process.argv.includes('--json');
const workersArg = arg('--workers') ?? 'auto';
const workers = workersArg === 'auto' ? 'auto' : Number(workersArg);
const cores = availableParallelism();
const log = (line: string): void => void (json ? undefined : console.error(line));

const entry = join(projectDir, 'index.html');
const meta = extractCompositionMetadata(readFileSync(entry, 'utf8'), { file: entry });
const fps = { num: meta.fps ?? 30, den: 1 };
const total = Math.round(meta.duration * fps.num);
const times = Array.from({ length: total }, (_, i) => frameTime(i, fps));

/** Capture only: the same pool the render uses, frames kept in memory instead of encoded. */
async function captureOnly(): Promise<{ frames: Buffer[]; cpuPerFrame: number; reused: number }> {
  const server = await createProjectServer({
    root: projectDir,
    entry: 'index.html',
    prepareHtml: createRuntimeInjector({ root: projectDir, runtimeSource: await loadRuntimeSource(), mode: 'render', fps: fps.num, seed: 1, epochMs: 0 }),
  });
  try {
    const browser = await findBrowser();
    const frames: Buffer[] = [];
    const stop = sampleProcessTree();
    const result = await renderFramePool({
      browser,
      workers: 1,
      mode: browser.supportsBeginFrame ? 'beginframe' : 'screenshot',
      page: { url: server.entryUrl, width: meta.width, height: meta.height, imageFormat: 'jpeg', transparent: false, readyTimeoutMs: 30_000 },
      times,
      onFrame: (i, frame) => void (frames[i] = frame),
    });
    const usage = stop();
    return { frames, cpuPerFrame: (usage.cpuSeconds.browser + usage.cpuSeconds.node) / total, reused: result.reusedFrames };
  } finally {
    await server.close();
  }
}

/** Encode only: ffmpeg's CPU for the captured frames at one preset. */
async function encodeOnly(frames: Buffer[], quality: Preset, dir: string): Promise<number> {
  const encoder = createFrameEncoder({ format: 'mp4', output: join(dir, `encode-${quality}.mp4`), width: meta.width, height: meta.height, fps, inputFormat: 'jpeg', quality });
  const stop = sampleProcessTree();
  for (const frame of frames) await encoder.write(frame);
  await encoder.finish();
  return stop().cpuSeconds.ffmpeg / frames.length;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seekframe-limits-'));
  try {
    log(`capture only: ${total} frames of ${projectDir} (${meta.width}x${meta.height})`);
    const capture = await captureOnly();
    const rows = [];
    for (const quality of presets) {
      log(`encode only: ${quality}`);
      const encodeCpu = await encodeOnly(capture.frames, quality, dir);
      log(`render: ${quality}`);
      const measured = await measureRender({ projectDir, output: join(dir, `render-${quality}.mp4`), quality, fps, workers });
      const rendered = measured.result;
      const limitFps = cores / (capture.cpuPerFrame + encodeCpu);
      const renderFps = measured.fps;
      rows.push({
        preset: quality,
        frames: total,
        captureCpuPerFrame: capture.cpuPerFrame,
        encodeCpuPerFrame: encodeCpu,
        limitFps,
        renderFps,
        ratio: renderFps / limitFps,
        renderCpuPerFrame: measured.captureCpuPerFrame + measured.encodeCpuPerFrame + measured.nodeCpuPerFrame,
        idleFraction: measured.idleFraction,
        othersFraction: measured.othersFraction,
        workers: rendered.workers,
        captureMode: rendered.captureMode,
        reusedFramesCaptureOnly: capture.reused,
      });
      if (json) console.log(JSON.stringify(rows.at(-1)));
    }
    if (!json) {
      console.log(`| preset | capture CPU s/frame | encode CPU s/frame | limit fps (${cores} cores) | render fps | ratio | render CPU s/frame | idle | others | workers |`);
      console.log('|---|---|---|---|---|---|---|---|---|---|');
      for (const r of rows) {
        console.log(`| ${r.preset} | ${r.captureCpuPerFrame.toFixed(3)} | ${r.encodeCpuPerFrame.toFixed(3)} | ${r.limitFps.toFixed(2)} | ${r.renderFps.toFixed(2)} | ${(r.ratio * 100).toFixed(0)}% | ${r.renderCpuPerFrame.toFixed(3)} | ${(r.idleFraction * 100).toFixed(0)}% | ${(r.othersFraction * 100).toFixed(0)}% | ${r.workers} |`);
      }
      console.log('idle = share of the cores the render left unused; others = share other processes used meanwhile (fps is unreliable when high).');
      console.log(`\n${total} frames, ${capture.reused} unchanged frames not re-encoded by Chromium (capture-only pass), ${rows[0]?.captureMode ?? ''} capture`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
