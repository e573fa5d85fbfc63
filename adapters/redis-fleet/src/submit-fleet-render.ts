import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { getFile, putFile } from '@seekframe/producer';
import type { RenderLimits } from '@seekframe/producer/limits';
import {
  distributedSpecInput,
  newRenderId,
  packProject,
  planStep,
  producerCore,
  renderKeys,
  systemRuntime,
  type DistributedRequest,
  type DistributedStore,
  type RenderCore,
  type RenderRuntime,
  type StoredPlan,
  type AssembledOutput,
} from '@seekframe/producer/distributed';
import { FlowProducer, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { markCancelled } from './cancel-signal.js';
import { ASSEMBLE_JOB, assembleJobId, CHUNK_JOB, chunkJobId, type AssembleJobData, type ChunkJobData } from './fleet-jobs.js';
import { followFleetRender, type FleetProgressEvent } from './follow-render.js';
import { probeQueue } from './queue-probe.js';
import type { QueueSettings } from './queue-settings.js';
import { closeWithin } from './close-within.js';

/** Attempts per chunk job (the first and two retries, 2 s then 4 s apart); a fatal error is never retried. */
export const CHUNK_ATTEMPTS = 3;

export type FleetSubmitEvent =
  | FleetProgressEvent
  | { type: 'planned'; renderId: string; chunks: number; totalFrames: number; fps: number }
  | { type: 'queued'; renderId: string };

export interface SubmitFleetRenderOptions {
  queue: QueueSettings;
  store: DistributedStore;
  projectDir: string;
  request?: DistributedRequest;
  /** The submitter's limits, checked by the plan (frames, pixels). */
  limits?: RenderLimits;
  /** Frames per chunk (evened out); default one second of video per chunk, at most `maxChunks`. */
  chunkFrames?: number;
  /** Most chunks one render becomes (default 100). */
  maxChunks?: number;
  renderId?: string;
  signal?: AbortSignal;
  onEvent?: (event: FleetSubmitEvent) => void;
  runtime?: RenderRuntime;
  core?: RenderCore;
  /** How long Redis may be unreachable before the render fails (default 120 s). */
  outageLimitMs?: number;
  pollMs?: number;
}

export interface SubmittedRender {
  renderId: string;
  plan: StoredPlan;
}

/**
 * Plans a render on this machine (the same plan step as Lambda's), puts the project, the plan
 * and the once-mixed audio in the fleet store, and adds the chunks and their assemble step to
 * the queue as one BullMQ flow (the parent runs once every chunk is done).
 */
export async function submitFleetRender(options: SubmitFleetRenderOptions): Promise<SubmittedRender> {
  const renderId = options.renderId ?? newRenderId();
  const keys = renderKeys(renderId);
  await probeQueue(options.queue, options.outageLimitMs ?? 120_000);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'seekframe-submit-'));
  try {
    const archive = path.join(scratch, 'project.tar.gz');
    await packProject(options.projectDir, archive);
    await putFile(options.store, keys.project, archive);
    const deps = {
      store: options.store,
      core: options.core ?? producerCore,
      runtime: options.runtime ?? systemRuntime(),
      workRoot: scratch,
    };
    const { stored } = await planStep(deps, {
      renderId,
      projectDir: options.projectDir,
      spec: distributedSpecInput(options.request ?? {}, options.projectDir, options.limits),
      source: options.projectDir,
      chunking: {
        maxChunks: options.maxChunks ?? 100,
        ...(options.chunkFrames !== undefined ? { framesPerChunk: options.chunkFrames } : {}),
      },
      workDir: path.join(scratch, 'plan'),
    });
    options.onEvent?.({
      type: 'planned',
      renderId,
      chunks: stored.chunks.length,
      totalFrames: stored.plan.totalFrames,
      fps: stored.plan.fps.num / stored.plan.fps.den,
    });
    const flow = new FlowProducer({ connection: options.queue.connection });
    try {
      const parent: AssembleJobData = { renderId, planHash: stored.plan.hash, chunks: stored.chunks.length };
      await flow.add({
        name: ASSEMBLE_JOB,
        queueName: options.queue.queueName,
        data: parent,
        opts: { jobId: assembleJobId(renderId), attempts: 2, backoff: { type: 'exponential', delay: 2_000 }, ...retention },
        children: stored.chunks.map((chunk) => ({
          name: CHUNK_JOB,
          queueName: options.queue.queueName,
          data: { renderId, planHash: stored.plan.hash, chunk: chunk.index } satisfies ChunkJobData,
          opts: {
            jobId: chunkJobId(renderId, chunk.index),
            attempts: CHUNK_ATTEMPTS,
            backoff: { type: 'exponential', delay: 2_000 },
            // A chunk that fails for good fails the render at once, with that chunk's error.
            failParentOnFailure: true,
            ...retention,
          },
        })),
      });
    } finally {
      await closeWithin(flow);
    }
    options.onEvent?.({ type: 'queued', renderId });
    return { renderId, plan: stored };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Finished jobs stay an hour (completed) or a day (failed) for inspection, then BullMQ drops them. */
const retention = { removeOnComplete: { age: 3_600 }, removeOnFail: { age: 86_400 } };

export interface FleetRenderOptions extends SubmitFleetRenderOptions {
  /** Where the finished video goes on this machine (written whole or not at all). */
  output: string;
  /** Keep the render's files in the store after the output is fetched (default: removed). */
  keepInStore?: boolean;
}

export interface FleetRenderResult {
  renderId: string;
  output: string;
  frames: number;
  chunks: number;
  /** The assemble job's answer, with where its time went (fetch, join, store). */
  assembled: Partial<AssembledOutput>;
}

/**
 * `seekframe render <dir> --queue …`: submit, follow with live progress from every worker,
 * fetch the output, clean the store. Aborting the signal cancels every chunk of the render.
 */
export async function renderOnFleet(options: FleetRenderOptions): Promise<FleetRenderResult> {
  const queue = new Queue(options.queue.queueName, { connection: options.queue.connection });
  const events = new QueueEvents(options.queue.queueName, { connection: options.queue.connection });
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  let renderId: string | undefined;
  try {
    // Listening before the flow is added, so the first progress event is not missed.
    await events.waitUntilReady();
    const submitted = await submitFleetRender(options);
    renderId = submitted.renderId;
    const assembled = (await followFleetRender({
      queue,
      events,
      renderId,
      chunks: submitted.plan.chunks.length,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      ...(options.outageLimitMs ? { outageLimitMs: options.outageLimitMs } : {}),
    })) as Partial<AssembledOutput> | null;
    const keys = renderKeys(renderId);
    if (!(await getFile(options.store, keys.output, options.output))) {
      throw new SeekframeError('segment-missing', `Render ${renderId} completed but ${keys.output} is not in the fleet store.`, {
        stage: 'output',
      });
    }
    return {
      renderId,
      output: options.output,
      frames: submitted.plan.plan.totalFrames,
      chunks: submitted.plan.chunks.length,
      assembled: assembled ?? {},
    };
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    if (renderId) await cancelFleetRender(options.queue, renderId).catch(() => undefined);
    const reason = options.signal.reason instanceof Error ? ` (${options.signal.reason.message})` : '';
    throw new SeekframeError(
      'render-cancelled',
      `The fleet render${renderId ? ` ${renderId}` : ''} was cancelled${reason}; every chunk of it stops.`,
      {
        stage: 'capture',
        ...(renderId ? { details: { renderId } } : {}),
      },
    );
  } finally {
    if (renderId && !options.keepInStore) await removeRender(options.store, renderId).catch(() => undefined);
    await Promise.all([closeWithin(events), closeWithin(queue)]);
  }
}

/** Cancels a fleet render: its running chunks stop, its waiting ones fail at once with render-cancelled. */
export async function cancelFleetRender(settings: QueueSettings, renderId: string): Promise<void> {
  const client = new Redis({ ...settings.connection, maxRetriesPerRequest: 3, connectionName: 'seekframe-cancel' });
  client.on('error', () => undefined);
  try {
    await markCancelled(client, settings, renderId);
  } finally {
    client.disconnect();
  }
}

/** Removes everything of a render from the fleet store (project, plan, audio, segments, output). */
export async function removeRender(store: DistributedStore, renderId: string): Promise<void> {
  const objects = await store.list(renderKeys(renderId).root);
  await Promise.all(objects.map((object) => store.delete(object.key)));
}
