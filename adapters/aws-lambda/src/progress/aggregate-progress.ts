import type { SeekframeErrorData } from '@seekframe/composition';
import type { WebhookAttempt } from '@seekframe/producer/webhooks';
import {
  countTransitions,
  DEFAULT_PRICING,
  estimateCost,
  type BilledInvocation,
  type CostEstimate,
  type Pricing,
  type RenderFunction,
} from './cost.js';
import type {
  AssembleProgress,
  AttemptError,
  ChunkProgress,
  FinalStatus,
  PlanProgress,
  RenderStatus,
  StoredRequest,
} from './progress-records.js';

export type DistributedStage = 'plan' | 'render' | 'assemble' | 'done';

/** What `GET /api/render/:id` and `getRenderProgress` answer. */
export interface DistributedProgress {
  id: string;
  status: RenderStatus;
  stage: DistributedStage;
  /** 0..1: plan 0-0.05, frames 0.05-0.9, assembly 0.9-1. */
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  chunks: { total: number | null; done: number; retried: number };
  /** Longest chunk so far (finished, or running for this long). */
  slowestChunkMs: number | null;
  /** A chunk passed 80 % of the function timeout: the next, longer render may time out. */
  timeoutRisk: boolean;
  warning: string | null;
  output: { key: string; size: number; frames: number; url?: string } | null;
  error: SeekframeErrorData | null;
  /** Every failed attempt so far (retried ones included). */
  failedAttempts: number;
  cost: CostEstimate;
  /** Present when the render was started with a `webhook`: where it posts, and every delivery attempt. */
  webhook?: { url: string; attempts: WebhookAttempt[] };
  createdAt: string;
  updatedAt: string;
}

export interface ProgressSources {
  request: StoredRequest;
  plan: PlanProgress | null;
  chunks: ChunkProgress[];
  assemble: AssembleProgress | null;
  errors: AttemptError[];
  status: FinalStatus | null;
  now: number;
  /** Memory of the API function that answers this (its own invocations are not counted). */
  pricing?: Pricing;
}

const TIMEOUT_WARNING_FRACTION = 0.8;

/** Pure: the progress and cost of a render from the objects its handlers wrote. */
export function aggregateProgress(src: ProgressSources): DistributedProgress {
  const totalFrames = src.plan?.totalFrames ?? null;
  const framesRendered = src.chunks.reduce((sum, c) => sum + Math.min(c.framesRendered, c.frames), 0);
  const chunksDone = src.chunks.filter((c) => c.done).length;
  const retried = new Set(src.errors.filter((e) => e.step !== 'plan' && e.step !== 'assemble').map((e) => e.step)).size;
  const durations = src.chunks.map((c) => (c.done ? c.durationMs : Math.max(c.durationMs, src.now - Date.parse(c.startedAt))));
  const slowestChunkMs = durations.length ? Math.max(...durations) : null;
  const limitMs = src.request.chunkTimeoutSeconds * 1000;
  const timeoutRisk = slowestChunkMs !== null && slowestChunkMs > TIMEOUT_WARNING_FRACTION * limitMs;

  let stage: DistributedStage = 'plan';
  let progress = 0;
  if (src.status?.status === 'completed') {
    stage = 'done';
    progress = 1;
  } else if (src.assemble) {
    stage = 'assemble';
    progress = src.assemble.done ? 0.99 : 0.9;
  } else if (src.plan) {
    stage = 'render';
    progress = 0.05 + 0.85 * (totalFrames ? framesRendered / totalFrames : 0);
  }
  const status: RenderStatus = src.status ? src.status.status : 'running';
  const stepFunction = (step: string): RenderFunction => (step === 'plan' ? 'plan' : step === 'assemble' ? 'assemble' : 'renderChunk');
  const invocations: BilledInvocation[] = [
    ...(src.plan ? [{ ...src.plan, function: 'plan' as const }] : []),
    ...src.chunks.map((c) => ({ ...c, function: 'renderChunk' as const })),
    ...(src.assemble ? [{ ...src.assemble, function: 'assemble' as const }] : []),
    ...src.errors.map((e) => ({ memoryMb: e.memoryMb, durationMs: e.durationMs, function: stepFunction(e.step) })),
  ];
  const attemptsOf = (step: (e: AttemptError) => boolean) => src.errors.filter(step).length;
  const cost = estimateCost(
    invocations,
    countTransitions({
      planAttempts: (src.plan ? 1 : 0) + attemptsOf((e) => e.step === 'plan'),
      chunkAttempts: src.chunks.length + attemptsOf((e) => e.step !== 'plan' && e.step !== 'assemble'),
      chunks: src.plan?.chunks ?? 0,
      assembleAttempts: (src.assemble ? 1 : 0) + attemptsOf((e) => e.step === 'assemble'),
      failed: status === 'failed',
    }),
    src.pricing ?? DEFAULT_PRICING,
  );
  const stamps = [
    src.request.createdAt,
    src.plan?.finishedAt,
    ...src.chunks.map((c) => c.updatedAt),
    src.assemble?.updatedAt,
    src.status?.finishedAt,
    ...src.errors.map((e) => e.at),
  ];
  const updatedAt =
    stamps
      .filter((s): s is string => typeof s === 'string')
      .sort()
      .at(-1) ?? src.request.createdAt;
  return {
    id: src.request.id,
    status,
    stage,
    progress: Math.round(Math.min(1, progress) * 1000) / 1000,
    framesRendered: status === 'completed' && totalFrames !== null ? totalFrames : framesRendered,
    totalFrames,
    chunks: { total: src.plan?.chunks ?? null, done: chunksDone, retried },
    slowestChunkMs,
    timeoutRisk,
    warning: timeoutRisk
      ? `The slowest chunk ran ${Math.round((slowestChunkMs ?? 0) / 1000)} s of the ${src.request.chunkTimeoutSeconds} s function timeout: ` +
        'use more chunks (a higher concurrency) or more memory for renderChunk before rendering longer videos.'
      : null,
    output: src.status?.output ?? null,
    error: src.status?.error ?? null,
    failedAttempts: src.errors.length,
    cost,
    createdAt: src.request.createdAt,
    updatedAt,
  };
}
