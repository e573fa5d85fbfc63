/**
 * The machine's limit for one composition, measured in one run: capture-only CPU per frame
 * (browser + Node, frames kept in memory), encode-only CPU per frame for each quality preset
 * (the same frames fed straight into ffmpeg), then a real render per preset. Prints
 *
 *   limit fps = cores / (capture CPU + encode CPU per frame)
 *
 * and the render's fps as a share of that limit. Nothing here is asserted: it is a measurement.
 *
 * A shared 2-core machine's speed drifts by ±10% from minute to minute (neighbours, CPU steal),
 * so one limit and one render taken a minute apart can disagree by that much. Each round
 * therefore measures capture, encode and render back to back per preset, and the figures
 * printed are the medians over the rounds (default 3), with the spread of the ratio.
 *
 * Both capture paths are measured, each with its own frames (canvas: raw pixels, I420 for mp4;
 * beginframe: JPEG), and the table says which one `--capture-mode auto` picks for this page.
 *
 *   npx tsx bench/limits.ts                       # bench/compositions/showcase-1080p, 3 presets, canvas and beginframe, 3 rounds
 *   npx tsx bench/limits.ts --rounds 1 --json
 *   npx tsx bench/limits.ts --dir compositions/ui-3d-reveal --presets standard --workers 2
 *   npx tsx bench/limits.ts --modes beginframe    # one path only
 *
 * Uses the built packages (run `npx turbo run build` first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompositionMetadata } from '@seekframe/composition';
import { canvasPixelsFor, createFrameEncoder, findBrowser, renderFramePool, sampleProcessTree, type CaptureMode } from '@seekframe/engine';
import { createProjectServer, createRuntimeInjector, frameTime, loadRuntimeSource, measureRender } from '@seekframe/producer';

type Preset = 'draft' | 'standard' | 'high';
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const projectDir = resolve(repoRoot, arg('--dir') ?? 'bench/compositions/showcase-1080p');
const presets = (arg('--presets') ?? 'draft,standard,high').split(',') as Preset[];
const modes = (arg('--modes') ?? 'canvas,beginframe').split(',') as CaptureMode[];
const rounds = Math.max(1, Number(arg('--rounds') ?? 3));
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

/** canvas: the pixels an mp4 render hands over (canvasPixelsFor). */
const pixels = canvasPixelsFor({ yuv420: true, width: meta.width, height: meta.height });

/** Capture only: the same pool the render uses, frames kept in memory instead of encoded. */
async function captureOnly(mode: CaptureMode): Promise<{ frames: Buffer[]; cpuPerFrame: number; reused: number }> {
  const server = await createProjectServer({
    root: projectDir,
    entry: 'index.html',
    prepareHtml: createRuntimeInjector({ runtimeSource: await loadRuntimeSource(), mode: 'render', fps: fps.num, seed: 1, epochMs: 0 }),
  });
  try {
    const browser = await findBrowser();
    const frames: Buffer[] = [];
    const stop = sampleProcessTree();
    const result = await renderFramePool({
      browser,
      workers: 1,
      mode,
      page: {
        url: server.entryUrl,
        ...(mode === 'canvas' ? { canvasPixels: pixels } : {}),
        width: meta.width,
        height: meta.height,
        imageFormat: 'jpeg',
        transparent: false,
        readyTimeoutMs: 30_000,
      },
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
async function encodeOnly(frames: Buffer[], quality: Preset, dir: string, mode: CaptureMode): Promise<number> {
  const encoder = createFrameEncoder({
    format: 'mp4',
    output: join(dir, `encode-${quality}.mp4`),
    width: meta.width,
    height: meta.height,
    fps,
    inputFormat: mode === 'canvas' ? pixels : 'jpeg',
    quality,
  });
  const stop = sampleProcessTree();
  for (const frame of frames) await encoder.write(frame);
  await encoder.finish();
  return stop().cpuSeconds.ffmpeg / frames.length;
}

interface RoundRow {
  captureCpuPerFrame: number;
  encodeCpuPerFrame: number;
  limitFps: number;
  renderFps: number;
  ratio: number;
  renderCpuPerFrame: number;
  idleFraction: number;
  othersFraction: number;
  workers: number;
  captureMode: string;
  reused: number;
}

/** One round for one preset and capture mode: capture only, encode only, render, back to back. */
async function measureRound(quality: Preset, mode: CaptureMode, dir: string): Promise<RoundRow> {
  log(`  capture only (${mode})`);
  const capture = await captureOnly(mode);
  log(`  encode only: ${quality}`);
  const encodeCpu = await encodeOnly(capture.frames, quality, dir, mode);
  log(`  render: ${quality}, --capture-mode ${mode}`);
  const measured = await measureRender({
    projectDir,
    output: join(dir, `render-${quality}.mp4`),
    quality,
    fps,
    workers,
    captureMode: mode,
  });
  const limitFps = cores / (capture.cpuPerFrame + encodeCpu);
  return {
    captureCpuPerFrame: capture.cpuPerFrame,
    encodeCpuPerFrame: encodeCpu,
    limitFps,
    renderFps: measured.fps,
    ratio: measured.fps / limitFps,
    renderCpuPerFrame: measured.captureCpuPerFrame + measured.encodeCpuPerFrame + measured.nodeCpuPerFrame,
    idleFraction: measured.idleFraction,
    othersFraction: measured.othersFraction,
    workers: measured.result.workers,
    captureMode: measured.result.captureMode,
    reused: capture.reused,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seekframe-limits-'));
  const keys = presets.flatMap((preset) => modes.map((mode) => ({ preset, mode })));
  const perKey = new Map<string, RoundRow[]>(keys.map(({ preset, mode }) => [`${preset}/${mode}`, []]));
  try {
    log(`${total} frames of ${projectDir} (${meta.width}x${meta.height}), ${rounds} round(s), capture ${modes.join(' and ')}`);
    for (let round = 1; round <= rounds; round++) {
      for (const { preset, mode } of keys) {
        log(`round ${round}/${rounds}, ${preset}, ${mode}`);
        const row = await measureRound(preset, mode, dir);
        perKey.get(`${preset}/${mode}`)!.push(row);
        log(`  limit ${row.limitFps.toFixed(2)} fps, render ${row.renderFps.toFixed(2)} fps = ${(row.ratio * 100).toFixed(0)}%`);
      }
    }
    const summary = keys.map(({ preset, mode }) => {
      const list = perKey.get(`${preset}/${mode}`)!;
      const pick = (key: keyof RoundRow): number => median(list.map((row) => row[key] as number));
      return {
        preset,
        mode,
        frames: total,
        rounds: list.length,
        captureCpuPerFrame: pick('captureCpuPerFrame'),
        encodeCpuPerFrame: pick('encodeCpuPerFrame'),
        limitFps: pick('limitFps'),
        renderFps: pick('renderFps'),
        ratio: pick('ratio'),
        ratioMin: Math.min(...list.map((row) => row.ratio)),
        ratioMax: Math.max(...list.map((row) => row.ratio)),
        renderCpuPerFrame: pick('renderCpuPerFrame'),
        idleFraction: pick('idleFraction'),
        othersFraction: pick('othersFraction'),
        workers: list[0]!.workers,
        captureMode: list[0]!.captureMode,
        reusedFramesCaptureOnly: list[0]!.reused,
        perRound: list,
      };
    });
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    if (json) {
      for (const row of summary) console.log(JSON.stringify({ ...row, load }));
      return;
    }
    const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
    console.log(
      `| preset | capture | capture CPU s/frame | encode CPU s/frame | limit fps (${cores} cores) | render fps | of the limit (min-max) | render CPU s/frame | idle | others | workers |`,
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of summary) {
      // What the render used: a canvas request on a page with a blocker is captured with beginframe.
      const used = r.captureMode === r.mode ? r.mode : `${r.mode} (used ${r.captureMode})`;
      console.log(
        `| ${r.preset} | ${used} | ${r.captureCpuPerFrame.toFixed(3)} | ${r.encodeCpuPerFrame.toFixed(3)} | ${r.limitFps.toFixed(2)} | ${r.renderFps.toFixed(2)} | ` +
          `${pct(r.ratio)} (${pct(r.ratioMin)}-${pct(r.ratioMax)}) | ${r.renderCpuPerFrame.toFixed(3)} | ${pct(r.idleFraction)} | ${pct(r.othersFraction)} | ${r.workers} |`,
      );
    }
    console.log(
      `Medians over ${rounds} round(s); each round measures capture, encode and render back to back. Load average at the end: ${load}.`,
    );
    console.log('idle = share of the cores the render left unused; others = share other processes (and CPU steal) took meanwhile.');
    const beginframe = summary.find((r) => r.mode === 'beginframe');
    console.log(
      `\n${total} frames, ${beginframe?.reusedFramesCaptureOnly ?? 0} unchanged frames not drawn again by Chromium (beginframe capture-only pass).`,
    );
    if (modes.includes('canvas') && modes.includes('beginframe')) {
      const auto = (
        await measureRender({ projectDir, output: join(dir, 'auto.mp4'), quality: presets[0]!, fps, workers }, { maxFrames: 2 })
      ).result.captureMode;
      console.log(`--capture-mode auto uses ${auto} for this composition.`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
