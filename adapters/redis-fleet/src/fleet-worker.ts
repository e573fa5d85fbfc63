import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { createBrowserPool, type BrowserPool } from '@seekframe/engine';
import type { RenderLimits } from '@seekframe/producer/limits';
import {
  assembleStep,
  chunkStep,
  classifyFailure,
  producerCore,
  systemRuntime,
  type DistributedDeps,
  type DistributedStore,
  type RenderCore,
  type RenderRuntime,
} from '@seekframe/producer/distributed';
import { type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { isCancelled, listenForCancels } from './cancel-signal.js';
import {
  ASSEMBLE_JOB,
  AssembleJobDataSchema,
  CHUNK_JOB,
  ChunkJobDataSchema,
  jobError,
  parseJobData,
  type ChunkProgress,
} from './fleet-jobs.js';
import type { QueueSettings } from './queue-settings.js';

/**
 * Production defaults for BullMQ's stalled-job check: a worker that dies (a killed machine, an
 * OOM) holds its job's lock for at most LOCK_DURATION_MS, and the other workers look for such
 * jobs every STALLED_INTERVAL_MS, so a lost chunk is rendered elsewhere within about a minute.
 * The lock is renewed every half LOCK_DURATION_MS while a chunk renders; shorter values move
 * jobs of a worker whose event loop or Redis link stalls for a moment.
 */
export const LOCK_DURATION_MS = 30_000;
export const STALLED_INTERVAL_MS = 30_000;
/** A chunk may be given back after a lost worker this often before it fails (a chunk that kills its machine every time). */
export const MAX_STALLED_COUNT = 2;

export interface FleetWorkerOptions {
  queue: QueueSettings;
  store: DistributedStore;
  /** Chunks this process renders at once (each one browser). Default 1. */
  concurrency?: number;
  /** The worker's limits, on top of each plan's (the same as `seekframe serve`). */
  limits?: RenderLimits;
  /** Scratch space; one folder per render (`render-<id>`), removed when another render needs room. Default the OS temp folder. */
  workRoot?: string;
  /** Browsers kept warm between chunks (default: `concurrency`; 0 = each chunk starts its own). */
  warmBrowsers?: number;
  browserIdleSeconds?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** Also run assemble jobs (default true). */
  assemble?: boolean;
  runtime?: RenderRuntime;
  core?: RenderCore;
  /** One line per job event (taken, done, failed, handed back). */
  onLog?: (line: string) => void;
}

export interface FleetWorker {
  readonly id: string;
  /** Resolves once the worker listens for jobs. */
  ready(): Promise<void>;
  /**
   * Stops taking jobs and lets the running ones finish; after `graceMs` the chunks still
   * rendering are stopped and handed back to the queue (another worker takes them at once).
   */
  close(graceMs?: number): Promise<void>;
}

interface ActiveJob {
  renderId: string;
  controller: AbortController;
  /** Why it was stopped: a cancel of its render, or this worker shutting down. */
  stop?: 'cancel' | 'shutdown';
}

/** A `seekframe worker` process's core: a BullMQ worker that renders chunk jobs and assembles renders. */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  // Host and pid, and a few random characters: containers on one host share the host name on its
  // network and often the pid.
  const id = `${os.hostname()}:${process.pid}:${randomBytes(2).toString('hex')}`;
  const log = options.onLog ?? (() => undefined);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const warm = options.warmBrowsers ?? concurrency;
  const browsers: BrowserPool | undefined =
    warm > 0 ? createBrowserPool({ maxBrowsers: warm, idleCloseMs: (options.browserIdleSeconds ?? 300) * 1000 }) : undefined;
  const workRoot = options.workRoot ?? path.join(os.tmpdir(), `seekframe-worker-${process.pid}`);
  const deps: DistributedDeps = {
    store: options.store,
    core: options.core ?? producerCore,
    runtime: options.runtime ?? systemRuntime(),
    workRoot,
    ...(browsers ? { browsers } : {}),
  };
  const active = new Map<string, ActiveJob>();
  const redis = new Redis({ ...options.queue.connection, connectionName: 'seekframe-worker' });
  redis.on('error', () => undefined);
  const cancels = await listenForCancels(options.queue, (renderId) => {
    for (const [jobId, job] of active) {
      if (job.renderId !== renderId) continue;
      job.stop = 'cancel';
      job.controller.abort(new SeekframeError('render-cancelled', `Render ${renderId} was cancelled.`, { stage: 'capture' }));
      log(`cancel: stopping ${jobId}`);
    }
  });

  const processor = async (job: Job, token: string | undefined): Promise<unknown> => {
    if (job.name !== CHUNK_JOB && job.name !== ASSEMBLE_JOB) {
      throw new UnrecoverableError(
        JSON.stringify(
          new SeekframeError(
            'invalid-job',
            `Job ${job.id} is named "${job.name}", not "${CHUNK_JOB}" or "${ASSEMBLE_JOB}": it is not a Seekframe job. Give other applications their own queue (--queue-name).`,
            { stage: 'config', details: { job: job.id ?? null, name: job.name } },
          ).toJSON(),
        ),
      );
    }
    const entry: ActiveJob = { renderId: '', controller: new AbortController() };
    try {
      const data =
        job.name === CHUNK_JOB
          ? parseJobData(ChunkJobDataSchema, job.name, job.id, job.data)
          : parseJobData(AssembleJobDataSchema, job.name, job.id, job.data);
      entry.renderId = data.renderId;
      active.set(job.id ?? '', entry);
      if (await isCancelled(redis, options.queue, data.renderId))
        throw new SeekframeError('render-cancelled', `Render ${data.renderId} was cancelled.`, { stage: 'capture' });
      await sweepOtherRenders(workRoot, active);
      if (job.name === ASSEMBLE_JOB) {
        log(`${job.id}: assembling render ${data.renderId}`);
        const output = await assembleStep(deps, data, { signal: entry.controller.signal });
        log(`${job.id}: assembled ${output.frames} frames (${output.size} bytes)`);
        return output;
      }
      const chunk = (data as { chunk: number }).chunk;
      log(`${job.id}: rendering chunk ${chunk} of render ${data.renderId} (attempt ${job.attemptsMade + 1})`);
      const result = await chunkStep(
        deps,
        { renderId: data.renderId, planHash: data.planHash, chunk },
        {
          signal: entry.controller.signal,
          attempt: job.attemptsStarted,
          ...(options.limits ? { limits: options.limits } : {}),
          onProgress: ({ framesRendered, frames }) => {
            const progress: ChunkProgress = { chunk, framesRendered, frames, worker: id };
            job.updateProgress(progress as unknown as object).catch(() => undefined);
          },
        },
      );
      log(`${job.id}: ${result.reused ? 'already stored' : 'stored'} ${result.frames} frames at ${result.key}`);
      return { chunk, frames: result.frames, reused: result.reused, worker: id, ...(result.timings ? { timings: result.timings } : {}) };
    } catch (thrown) {
      if (entry.stop === 'shutdown' && token) {
        // Handed back: the job waits again and another worker (or this one, restarted) takes it.
        await job.moveToWait(token);
        log(`${job.id}: handed back (shutting down)`);
        throw new WaitingError();
      }
      const error =
        entry.stop === 'cancel'
          ? new SeekframeError('render-cancelled', `Render ${entry.renderId} was cancelled.`, { stage: 'capture' })
          : thrown;
      const classified = classifyFailure(error);
      log(`${job.id}: failed (${classified.kind}): ${classified.error.code}: ${classified.error.message}`);
      if (classified.kind === 'fatal') throw new UnrecoverableError(JSON.stringify(classified.error));
      throw jobError(classified.error);
    } finally {
      active.delete(job.id ?? '');
    }
  };

  const worker = new Worker(options.queue.queueName, processor, {
    connection: options.queue.connection,
    concurrency,
    lockDuration: options.lockDurationMs ?? LOCK_DURATION_MS,
    stalledInterval: options.stalledIntervalMs ?? STALLED_INTERVAL_MS,
    maxStalledCount: options.maxStalledCount ?? MAX_STALLED_COUNT,
    name: id,
    autorun: false,
  });
  // An 'error' event without a listener would end the process: log it and keep going (a Redis
  // restart shows up here and BullMQ reconnects by itself).
  worker.on('error', (error) => log(`queue error: ${error.message}`));
  worker.on('stalled', (jobId) => log(`${jobId}: stalled (its worker was lost); back in the queue`));
  void worker.run().catch((error: unknown) => log(`worker stopped: ${error instanceof Error ? error.message : String(error)}`));

  let closing: Promise<void> | undefined;
  return {
    id,
    ready: () => worker.waitUntilReady().then(() => undefined),
    close(graceMs = 30_000) {
      closing ??= (async () => {
        const timer = setTimeout(() => {
          for (const [jobId, job] of active) {
            job.stop = 'shutdown';
            job.controller.abort(new SeekframeError('render-cancelled', 'The worker is shutting down.', { stage: 'capture' }));
            log(`${jobId}: stopping to hand it back`);
          }
        }, graceMs);
        try {
          await worker.close();
        } finally {
          clearTimeout(timer);
          await cancels.close();
          redis.disconnect();
          await browsers?.close();
        }
      })();
      return closing;
    },
  };
}

/** Removes the scratch folders of renders no job of this process works on. */
async function sweepOtherRenders(workRoot: string, active: Map<string, ActiveJob>): Promise<void> {
  const busy = new Set([...active.values()].map((job) => `render-${job.renderId}`));
  const names = await readdir(workRoot).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith('render-') && !busy.has(name))
      .map((name) => rm(path.join(workRoot, name), { recursive: true, force: true })),
  );
}
