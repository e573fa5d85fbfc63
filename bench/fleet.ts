/**
 * A render fleet on one machine: the same 1080p composition rendered by one machine (one
 * browser, `renderComposition`) and by 1, 2 and 3 `seekframe worker` processes through Redis
 * (Debian's redis-server on a free loopback port, a folder as the store). Prints for each case
 * the wall time, the CPU time of every process (this one, the workers, their browsers and
 * ffmpeg) per frame, and where a chunk's fixed cost goes: prepare (plan read, version check,
 * project fetched and unpacked), first frame (browser leased or started, page load, seek-in),
 * segment store, and the assembly (fetch, concat + mux, store).
 *
 *   npm run build && node --import tsx bench/fleet.ts                      # 20 s of 1080p30 = 600 frames, 1/2/3 workers
 *   node --import tsx bench/fleet.ts --seconds 2 --width 320 --height 180 --workers 1,2   # quick check
 *   ... --chunk-frames 60 --json
 *
 * The workers run the built CLI (core/cli/dist): build first. On a shared machine wall time is
 * noise; the CPU seconds and the load average printed with each case are the figures to read.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sampleProcessTree } from '@seekframe/engine';
import { createLocalFolderStorage, renderComposition } from '@seekframe/producer';
import type { DistributedStore } from '@seekframe/producer/distributed';
import { queueSettings, renderOnFleet, type ChunkTimings, type FleetSubmitEvent } from '@seekframe/redis-fleet';
import { busyComposition } from './busy-composition.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    width: { type: 'string', default: '1920' },
    height: { type: 'string', default: '1080' },
    fps: { type: 'string', default: '30' },
    workers: { type: 'string', default: '1,2,3' },
    'chunk-frames': { type: 'string', default: '60' },
    quality: { type: 'string', default: 'standard' },
    json: { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const fps = Number(args.fps);
const frames = seconds * fps;
const chunkFrames = Number(args['chunk-frames']);
const quality = args.quality as 'draft' | 'standard' | 'high';
const CLI = fileURLToPath(new URL('../core/cli/bin/seekframe.js', import.meta.url));

interface Case {
  name: string;
  workers: number | null;
  wallSeconds: number;
  cpuSeconds: { browser: number; ffmpeg: number; node: number; other: number; total: number };
  cpuMsPerFrame: number;
  load: number[];
  chunks?: number;
  /** Mean per chunk, ms. */
  perChunk?: ChunkTimings;
  assembly?: { fetch: number; join: number; store: number };
  planSeconds?: number;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'seekframe-bench-fleet-'));
  const projectDir = path.join(work, 'project');
  await import('node:fs/promises').then((fs) => fs.mkdir(projectDir));
  await writeFile(
    path.join(projectDir, 'index.html'),
    busyComposition({ width: Number(args.width), height: Number(args.height), seconds, fps, id: 'fleet-bench' }),
  );
  const redis = await startRedis(work);
  const cases: Case[] = [];
  try {
    cases.push(await oneMachine(projectDir, work));
    report(cases.at(-1)!);
    for (const count of args.workers.split(',').map(Number)) {
      cases.push(await fleet(count, projectDir, work, redis.url));
      report(cases.at(-1)!);
    }
  } finally {
    redis.stop();
    await rm(work, { recursive: true, force: true });
  }
  if (!args.json) summary(cases);
}

async function oneMachine(projectDir: string, work: string): Promise<Case> {
  const usage = sampleProcessTree();
  const started = performance.now();
  await renderComposition({
    projectDir,
    output: path.join(work, 'one-machine.mp4'),
    quality,
    workers: 1,
    captureMode: 'beginframe',
    network: 'sandboxed',
  });
  return measured('one machine, 1 browser', null, started, usage());
}

async function fleet(count: number, projectDir: string, work: string, url: string): Promise<Case> {
  const storeDir = path.join(work, `store-${count}`);
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(url, storeDir)));
  try {
    const usage = sampleProcessTree();
    const started = performance.now();
    const done: ChunkTimings[] = [];
    let planned = 0;
    const result = await renderOnFleet({
      queue: queueSettings({ url, env: {} }),
      store: createLocalFolderStorage({ root: storeDir }) as DistributedStore,
      projectDir,
      output: path.join(work, `fleet-${count}.mp4`),
      request: { quality },
      chunkFrames,
      onEvent: (event: FleetSubmitEvent) => {
        if (event.type === 'queued') planned = performance.now();
        if (event.type === 'chunk-done' && event.timings) done.push(event.timings);
      },
    });
    const mean = (key: keyof ChunkTimings): number => Math.round(done.reduce((sum, t) => sum + t[key], 0) / Math.max(1, done.length));
    return {
      ...measured(`${count} worker${count === 1 ? '' : 's'}`, count, started, usage()),
      chunks: result.chunks,
      perChunk: { prepare: mean('prepare'), firstFrame: mean('firstFrame'), frames: mean('frames'), store: mean('store') },
      ...(result.assembled.timings ? { assembly: result.assembled.timings } : {}),
      planSeconds: (planned - started) / 1000,
    };
  } finally {
    await Promise.all(workers.map(stopWorker));
  }
}

function measured(name: string, workers: number | null, started: number, usage: ReturnType<ReturnType<typeof sampleProcessTree>>): Case {
  const cpu = usage.cpuSeconds;
  const total = cpu.browser + cpu.ffmpeg + cpu.node + cpu.other;
  return {
    name,
    workers,
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: { ...cpu, total },
    cpuMsPerFrame: (1000 * total) / frames,
    load: os.loadavg(),
  };
}

function startWorker(url: string, store: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'worker', '--queue', url, '--store', store], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      if (/^worker \S+ on /m.test(output)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`a worker exited with ${code} before it was ready: ${output}`)));
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function startRedis(dir: string): Promise<{ url: string; stop(): void }> {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as import('node:net').AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', ''], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

function report(result: Case): void {
  if (args.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const cpu = result.cpuSeconds;
  console.log(
    `${result.name}: ${result.wallSeconds.toFixed(1)} s wall, CPU ${cpu.total.toFixed(1)} s (browser ${cpu.browser.toFixed(1)}, ffmpeg ${cpu.ffmpeg.toFixed(1)}, node ${cpu.node.toFixed(1)}) = ${result.cpuMsPerFrame.toFixed(1)} ms/frame; load ${result.load.map((l) => l.toFixed(1)).join(' ')}`,
  );
  if (result.perChunk)
    console.log(
      `  ${result.chunks} chunks of ~${chunkFrames} frames; plan + upload on the submitter ${result.planSeconds!.toFixed(1)} s; per chunk (mean): prepare ${result.perChunk.prepare} ms, first frame ${result.perChunk.firstFrame} ms, frames ${result.perChunk.frames} ms, segment store ${result.perChunk.store} ms; assembly: fetch ${result.assembly?.fetch} ms, concat + mux ${result.assembly?.join} ms, store ${result.assembly?.store} ms`,
    );
}

function summary(cases: Case[]): void {
  const base = cases[0]!;
  console.log('\n| case | wall s | CPU s | CPU ms/frame | CPU vs one machine |');
  console.log('|---|---|---|---|---|');
  for (const c of cases)
    console.log(
      `| ${c.name} | ${c.wallSeconds.toFixed(1)} | ${c.cpuSeconds.total.toFixed(1)} | ${c.cpuMsPerFrame.toFixed(1)} | ${((100 * c.cpuSeconds.total) / base.cpuSeconds.total).toFixed(0)}% |`,
    );
}

await main();
