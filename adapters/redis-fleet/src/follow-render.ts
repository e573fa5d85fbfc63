import { SeekframeError } from '@seekframe/composition';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import { assembleJobId, type ChunkProgress, chunkJobId, errorFromFailedReason } from './fleet-jobs.js';
import { withTimeout } from './with-timeout.js';

/** Where a chunk's time went on its worker, in ms (chunkStep's timings). */
export interface ChunkTimings {
  prepare: number;
  firstFrame: number;
  frames: number;
  store: number;
}

/** What the submitter learns while a fleet render runs. */
export type FleetProgressEvent =
  | { type: 'chunk-progress'; chunk: number; framesRendered: number; frames: number; worker: string }
  | { type: 'chunk-done'; chunk: number; frames: number; worker: string; reused: boolean; timings?: ChunkTimings }
  | { type: 'chunk-failed'; chunk: number; reason: string }
  | { type: 'assembling' };

export interface FollowOptions {
  queue: Queue;
  events: QueueEvents;
  renderId: string;
  chunks: number;
  onEvent?: (event: FleetProgressEvent) => void;
  signal?: AbortSignal;
  /** How often the parent job's state is read (events can be lost while Redis restarts). Default 2 s. */
  pollMs?: number;
  /** How long Redis may be unreachable before the render fails with queue-unavailable. Default 120 s. */
  outageLimitMs?: number;
}

/**
 * Waits for a fleet render's parent (assemble) job, with live progress from QueueEvents. The
 * events are only the news; the truth is the job's state, read every `pollMs`, so a restart of
 * Redis (events lost, connections re-made) can neither hang the render nor end it early:
 * - the parent completed: resolves with its return value (the assembled output);
 * - the parent or a chunk failed for good: rejects with that chunk's own error (its code);
 * - the parent is gone (Redis restarted without persistence, jobs removed): render-lost;
 * - Redis unreachable for longer than `outageLimitMs`: queue-unavailable.
 */
export async function followFleetRender(options: FollowOptions): Promise<unknown> {
  const { queue, events, renderId } = options;
  const prefix = `${renderId}-`;
  const parentId = assembleJobId(renderId);
  const chunkOf = (jobId: string): number | null => {
    const match = /-c(\d{5})$/.exec(jobId);
    return jobId.startsWith(prefix) && match ? Number(match[1]) : null;
  };
  const onProgress = ({ jobId, data }: { jobId: string; data: unknown }): void => {
    const chunk = chunkOf(jobId);
    const progress = data as Partial<ChunkProgress>;
    if (chunk === null || typeof progress?.framesRendered !== 'number') return;
    options.onEvent?.({
      type: 'chunk-progress',
      chunk,
      framesRendered: progress.framesRendered,
      frames: progress.frames ?? 0,
      worker: progress.worker ?? '?',
    });
  };
  const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }): void => {
    const chunk = chunkOf(jobId);
    const value = (typeof returnvalue === 'string' ? safeJson(returnvalue) : returnvalue) as {
      frames?: number;
      worker?: string;
      reused?: boolean;
      timings?: ChunkTimings;
    } | null;
    if (chunk !== null)
      options.onEvent?.({
        type: 'chunk-done',
        chunk,
        frames: value?.frames ?? 0,
        worker: value?.worker ?? '?',
        reused: value?.reused === true,
        ...(value?.timings ? { timings: value.timings } : {}),
      });
  };
  const onActive = ({ jobId }: { jobId: string }): void => {
    if (jobId === parentId) options.onEvent?.({ type: 'assembling' });
  };
  const onRetry = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void => {
    const chunk = chunkOf(jobId);
    if (chunk !== null)
      options.onEvent?.({ type: 'chunk-failed', chunk, reason: errorFromFailedReason(failedReason, `chunk ${chunk}`).message });
  };
  events.on('progress', onProgress);
  events.on('completed', onCompleted);
  events.on('active', onActive);
  events.on('failed', onRetry);
  const pollMs = options.pollMs ?? 2_000;
  const outageLimitMs = options.outageLimitMs ?? 120_000;
  let lastAnswer = Date.now();
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const state = await withTimeout(readState(queue, parentId), Math.max(pollMs, 5_000)).catch((error: unknown) => ({
        unreachable: error instanceof Error ? error.message : String(error),
      }));
      if ('unreachable' in state) {
        if (Date.now() - lastAnswer > outageLimitMs) {
          throw new SeekframeError(
            'queue-unavailable',
            `The queue (Redis) did not answer for ${Math.round(outageLimitMs / 1000)} s while render ${renderId} ran (${state.unreachable}). The workers may still finish it; its output will be at renders/${renderId}/out.mp4 in the fleet store.`,
            { stage: 'capture', retryable: true, details: { renderId } },
          );
        }
      } else {
        lastAnswer = Date.now();
        if (state.state === 'completed') return state.returnvalue;
        if (state.state === 'missing') {
          throw new SeekframeError(
            'render-lost',
            `Render ${renderId} is no longer in the queue: Redis lost its jobs (restarted without persistence?) or they were removed. Run Redis with appendonly yes and start the render again.`,
            { stage: 'capture', details: { renderId } },
          );
        }
        if (state.state === 'failed') throw await failureOf(queue, renderId, options.chunks, state.failedReason);
      }
      await sleep(pollMs, options.signal);
    }
  } finally {
    events.off('progress', onProgress);
    events.off('completed', onCompleted);
    events.off('active', onActive);
    events.off('failed', onRetry);
  }
}

async function readState(queue: Queue, jobId: string): Promise<{ state: string; failedReason?: string; returnvalue?: unknown }> {
  const job = await Job.fromId(queue, jobId);
  if (!job) return { state: 'missing' };
  const state = await job.getState();
  return { state, returnvalue: job.returnvalue, ...(job.failedReason ? { failedReason: job.failedReason } : {}) };
}

/** The error a failed render ends with: the parent's own (assembly), else the first failed chunk's. */
async function failureOf(queue: Queue, renderId: string, chunks: number, parentReason: string | undefined): Promise<SeekframeError> {
  const own = errorFromFailedReason(parentReason, `Assembly of render ${renderId}`);
  if (own.code !== 'render-failed') return own;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const job = await Job.fromId(queue, chunkJobId(renderId, chunk));
    if (job && (await job.getState()) === 'failed') return errorFromFailedReason(job.failedReason, `Chunk ${chunk} of render ${renderId}`);
  }
  return own;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
