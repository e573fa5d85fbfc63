/**
 * Where the CPU of a capture goes: one warm browser captures a composition's frames (frames kept
 * in memory, nothing encoded), and the CPU it spent doing so is read per process and per thread
 * from /proc (Chromium names its threads: CrRendererMain, Compositor, CompositorTileW,
 * VizCompositorTh, ...), plus Node's own CPU. Start-up and page load are excluded: the counters
 * are read after the page is ready and again after the last frame, before the browser closes.
 *
 *   npx tsx bench/capture-cpu.ts                                   # motion-1080p, 90 frames
 *   npx tsx bench/capture-cpu.ts --dir bench/compositions/showcase-1080p --frames 240
 *   npx tsx bench/capture-cpu.ts --args "--num-raster-threads=1"   # extra Chromium flags, A/B
 *   npx tsx bench/capture-cpu.ts --rounds 3 --json
 *   npx tsx bench/capture-cpu.ts --mode canvas                     # capture mode (default: beginframe when supported)
 *
 * CPU seconds are far less sensitive to neighbours than wall time, but not immune (cache, CPU
 * steal): repeat and compare medians. Nothing here is asserted: it is a measurement.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompositionMetadata } from '@seekframe/composition';
import { canvasPixelsFor, findBrowser, openPoolWorker } from '@seekframe/engine';
import { createProjectServer, createRuntimeInjector, frameTime, loadRuntimeSource } from '@seekframe/producer';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const projectDir = resolve(repoRoot, arg('--dir') ?? 'bench/compositions/motion-1080p');
const rounds = Math.max(1, Number(arg('--rounds') ?? 1));
const extraArgs = (arg('--args') ?? '').split(/\s+/).filter(Boolean);
const format = (arg('--format') ?? 'jpeg') as 'jpeg' | 'png';
const json = process.argv.includes('--json');
const modeArg = arg('--mode') as 'beginframe' | 'screenshot' | 'canvas' | undefined;
const raw = arg('--raw') === undefined ? undefined : (JSON.parse(arg('--raw')!) as Record<string, unknown>);

const entry = join(projectDir, 'index.html');
const meta = extractCompositionMetadata(readFileSync(entry, 'utf8'), { file: entry });
const fps = { num: meta.fps ?? 30, den: 1 };
const total = Math.min(Number(arg('--frames') ?? 90), Math.round(meta.duration * fps.num));
const TICKS = 100;

/** CPU seconds per "process type/thread name" of a process tree, read now. */
function treeThreads(rootPid: number): Map<string, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  const out = new Map<string, number>();
  for (const pid of tree) {
    let type = 'browser';
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
      if (/--utility-sub-type=([\w.]+)/.test(cmd)) type += `:${/--utility-sub-type=([\w.]+)/.exec(cmd)![1]!.split('.').pop()}`;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS;
        const key = `${type} / ${comm}`;
        out.set(key, (out.get(key) ?? 0) + cpu);
      }
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

async function round(): Promise<{
  hash: string;
  perFrame: Map<string, number>;
  node: number;
  browser: number;
  wall: number;
  bytes: number;
}> {
  const server = await createProjectServer({
    root: projectDir,
    entry: 'index.html',
    prepareHtml: createRuntimeInjector({ runtimeSource: await loadRuntimeSource(), mode: 'render', fps: fps.num, seed: 1, epochMs: 0 }),
  });
  const found = await findBrowser();
  const browser = { ...found, extraArgs: [...(found.extraArgs ?? []), ...extraArgs] };
  const worker = await openPoolWorker({
    browser,
    gpu: process.argv.includes('--gpu'),
    mode: modeArg ?? (browser.supportsBeginFrame ? 'beginframe' : 'screenshot'),
    page: {
      url: server.entryUrl,
      width: meta.width,
      height: meta.height,
      imageFormat: format,
      transparent: false,
      readyTimeoutMs: 30_000,
      skipUnchangedFrames: false,
      ...(modeArg === 'canvas' ? { canvasPixels: canvasPixelsFor({ yuv420: true, width: meta.width, height: meta.height }) } : {}),
    },
  });
  try {
    const pid = worker.session.browser.process()!.pid!;
    // One frame first: the first draw after load allocates tiles and surfaces once.
    await worker.page.seekAndCapture(0, 0);
    const before = treeThreads(pid);
    const nodeBefore = process.cpuUsage();
    const start = performance.now();
    let bytes = 0;
    let hashCpu = 0;
    // Of every frame's bytes: equal hashes = identical frames (a setting that changes pixels shows).
    const hash = createHash('sha256');
    if (raw === undefined) {
      for (let i = 1; i <= total; i++) {
        const frame = await worker.page.seekAndCaptureFrame(frameTime(i % total, fps), i);
        bytes += frame.data.length;
        // The hash is the bench's own work (~20 ms for an 8 MB raw frame): kept out of Node's figure.
        const hashing = process.cpuUsage();
        hash.update(frame.data);
        const spent = process.cpuUsage(hashing);
        hashCpu += (spent.user + spent.system) / 1e6;
        // As the encoder does once ffmpeg has the bytes: canvas capture reuses the memory.
        frame.release?.();
      }
    } else {
      // --raw '<json>': seek, then one HeadlessExperimental.beginFrame with these parameters (to
      // price a screenshot setting, or a draw with no screenshot: --raw '{}').
      const cdp = await worker.page.page.createCDPSession();
      for (let i = 1; i <= total; i++) {
        await worker.page.evaluate(
          (t: number) => (window as unknown as { __seekframe: { seek(t: number): Promise<void> } }).__seekframe.seek(t),
          frameTime(i % total, fps),
        );
        const result = await cdp.send('HeadlessExperimental.beginFrame', raw);
        bytes += result.screenshotData ? Buffer.from(result.screenshotData, 'base64').length : 0;
      }
    }
    const wall = (performance.now() - start) / 1000;
    const nodeUsage = process.cpuUsage(nodeBefore);
    const after = treeThreads(pid);
    const perFrame = new Map<string, number>();
    for (const [key, cpu] of after) perFrame.set(key, (cpu - (before.get(key) ?? 0)) / total);
    const browserCpu = [...perFrame.values()].reduce((a, b) => a + b, 0);
    return {
      hash: hash.digest('hex').slice(0, 16),
      perFrame,
      node: ((nodeUsage.user + nodeUsage.system) / 1e6 - hashCpu) / total,
      browser: browserCpu,
      wall,
      bytes: bytes / total,
    };
  } finally {
    await worker.session.close();
    await server.close();
  }
}

const results: Array<Awaited<ReturnType<typeof round>>> = [];
for (let r = 0; r < rounds; r++) results.push(await round());
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const summary = {
  composition: projectDir.slice(repoRoot.length + 1),
  frames: total,
  args: extraArgs,
  mode: modeArg ?? 'beginframe',
  format,
  captureCpuPerFrame: median(results.map((x) => x.browser + x.node)),
  browserCpuPerFrame: median(results.map((x) => x.browser)),
  nodeCpuPerFrame: median(results.map((x) => x.node)),
  wallPerFrame: median(results.map((x) => x.wall / total)),
  bytesPerFrame: Math.round(median(results.map((x) => x.bytes))),
  rounds: results.map((x) => +(x.browser + x.node).toFixed(4)),
  framesSha256: [...new Set(results.map((x) => x.hash))],
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
};
if (json) {
  console.log(JSON.stringify(summary));
} else {
  console.log(JSON.stringify(summary, null, 1));
  const keys = new Set(results.flatMap((x) => [...x.perFrame.keys()]));
  const rows = [...keys].map((key) => [key, median(results.map((x) => x.perFrame.get(key) ?? 0))] as const).filter(([, v]) => v >= 0.0005);
  rows.sort((a, b) => b[1] - a[1]);
  console.log('| process / thread | CPU ms per frame |\n|---|---|');
  for (const [key, value] of rows) console.log(`| ${key} | ${(value * 1000).toFixed(1)} |`);
  console.log(`| node | ${(summary.nodeCpuPerFrame * 1000).toFixed(1)} |`);
}
