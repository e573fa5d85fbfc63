/**
 * "Simulated locally": a distributed Lambda render run on this machine through the real
 * handlers and the local fan-out runner (runLocalRender), with a folder as the bucket. Prints the
 * wall time of one composition as 1 chunk vs N chunks run P at a time, the per-chunk fixed cost
 * (browser start + page load + first frame, measured to the first captured frame), the frame
 * time, and the assembly time.
 *
 *   node --conditions=source --import tsx bench/lambda-sim.ts     # 60 s 1080p30, 1 chunk vs 8 chunks 2 at a time
 *   node --conditions=source --import tsx bench/lambda-sim.ts --seconds 3 --width 320 --height 180 --chunks 4 --quality draft   # quick check
 *   ... --json                                                    # one JSON object per case
 *
 * (`--conditions=source` runs the TypeScript sources; without it the built packages are used.)
 *
 * Full size takes many minutes and both cores: run it on a quiet machine.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalFolderStorage } from '@seekframe/producer';
import { runLocalRender } from '@seekframe/aws-lambda';
import { producerCore, systemRuntime, type RenderCore } from '@seekframe/producer/distributed';
import { busyComposition } from './busy-composition.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    width: { type: 'string', default: '1920' },
    height: { type: 'string', default: '1080' },
    fps: { type: 'string', default: '30' },
    chunks: { type: 'string', default: '8' },
    parallel: { type: 'string', default: '2' },
    quality: { type: 'string', default: 'standard' },
    json: { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const width = Number(args.width);
const height = Number(args.height);
const fps = Number(args.fps);

interface Timings {
  plan: number;
  chunks: { frames: number; totalMs: number; firstFrameMs: number | null }[];
  assembleMs: number;
}

/** The real core with stopwatches around the calls the handlers make. */
function timedCore(core: RenderCore, timings: Timings): RenderCore {
  return {
    ...core,
    planRender: async (spec, context) => {
      const t = performance.now();
      try {
        return await core.planRender(spec, context);
      } finally {
        timings.plan += performance.now() - t;
      }
    },
    renderFrames: async (plan, range, target, context) => {
      const t = performance.now();
      let first: number | null = null;
      const result = await core.renderFrames(plan, range, target, {
        ...context,
        onEvent: (event) => {
          if (first === null && event.type === 'progress' && (event.framesRendered ?? 0) >= 1) first = performance.now() - t;
          context.onEvent?.(event);
        },
      });
      timings.chunks.push({ frames: range.end - range.start, totalMs: performance.now() - t, firstFrameMs: first });
      return result;
    },
    assembleSegments: async (plan, pieces, audio, output, context) => {
      const t = performance.now();
      try {
        return await core.assembleSegments(plan, pieces, audio, output, context);
      } finally {
        timings.assembleMs += performance.now() - t;
      }
    },
  };
}

async function runCase(name: string, chunks: number, parallel: number, projectDir: string, core: RenderCore, work: string) {
  const timings: Timings = { plan: 0, chunks: [], assembleMs: 0 };
  const started = performance.now();
  const { progress } = await runLocalRender({
    store: createLocalFolderStorage({ root: path.join(work, `bucket-${chunks}`) }),
    core: timedCore(core, timings),
    runtime: systemRuntime(),
    workRoot: path.join(work, `tmp-${chunks}`),
    projectDir,
    request: { quality: args.quality as 'draft' | 'standard' | 'high' },
    chunking: { chunkCount: chunks, accountConcurrency: Math.max(chunks, parallel) },
    maxConcurrency: parallel,
    // Billed as if every step ran with renderChunk's 3008 MB (plan and assemble use less on Lambda).
    memoryMb: 3008,
  });
  const wallMs = performance.now() - started;
  const fixed = timings.chunks
    .map((c) => c.firstFrameMs)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const perFrame = timings.chunks.map((c) => (c.totalMs - (c.firstFrameMs ?? 0)) / Math.max(1, c.frames - 1));
  return {
    case: name,
    frames: progress.totalFrames,
    chunks,
    parallel,
    wallSeconds: round(wallMs / 1000),
    planSeconds: round(timings.plan / 1000),
    chunkFixedCostSeconds: fixed.length ? round(fixed[Math.floor(fixed.length / 2)]! / 1000) : null,
    chunkSecondsPerFrame: round(perFrame.reduce((a, b) => a + b, 0) / perFrame.length / 1000, 4),
    slowestChunkSeconds: round(Math.max(...timings.chunks.map((c) => c.totalMs)) / 1000),
    assembleSeconds: round(timings.assembleMs / 1000),
    lambdaCostIfDeployed: progress.cost.display,
  };
}

function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

const work = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-sim-'));
try {
  const projectDir = path.join(work, 'project');
  await import('node:fs/promises').then((fs) => fs.mkdir(projectDir));
  await writeFile(path.join(projectDir, 'index.html'), busyComposition({ width, height, seconds, fps, id: 'lambda-sim' }));
  const core: RenderCore = producerCore;
  const chunks = Number(args.chunks);
  const parallel = Number(args.parallel);
  const label = `${seconds} s ${width}x${height}@${fps}`;
  const results = [
    await runCase(`${label}, 1 chunk`, 1, 1, projectDir, core, work),
    await runCase(`${label}, ${chunks} chunks ${parallel} at a time`, chunks, parallel, projectDir, core, work),
  ];
  if (args.json) for (const r of results) console.log(JSON.stringify(r));
  else {
    console.log(
      `Simulated locally on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}); the cost column is what the same invocations would cost on Lambda.`,
    );
    console.table(results);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
