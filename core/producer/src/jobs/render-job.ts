import type { SeekframeErrorData } from '@seekframe/composition';
import type { RenderEvent, RenderStage } from '../render/render-events.js';
import type { JobStatus } from '../http/job-status.js';

export type { JobStatus };

/**
 * A render job as the job service reports it: plain JSON (dates as ISO strings), so a host can
 * send it as it is. The same field names as core/render-api's `RenderJob` progress view.
 */
export interface JobSnapshot<Result = unknown> {
  id: string;
  status: JobStatus;
  /** The render's latest `{type:'stage'}`; null until it announces one. */
  stage: RenderStage | null;
  /** 0..1 */
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  /** Place in line while queued (1 = next); 0 once it started. */
  position: number;
  /** What the runner returned (completed jobs). */
  result?: Result;
  /** Why it failed (failed jobs). */
  error?: SeekframeErrorData;
  /** Why it was cancelled (cancelled jobs). */
  reason?: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
}

/** Render events a running job passes on unchanged (its own `complete`/`error` become the final event). */
export type JobRenderEvent = Extract<RenderEvent, { type: 'stage' | 'progress' | 'warning' }>;

/**
 * What a subscriber hears. `snapshot` comes first, once, with the state at subscription time
 * (so a late subscriber misses nothing it needs); then changes as they happen; at most one of
 * `completed`, `failed`, `cancelled` is last, after which the subscription ends by itself.
 */
export type JobEvent<Result = unknown> =
  | { type: 'snapshot' }
  | { type: 'queued'; position: number }
  | { type: 'started' }
  | JobRenderEvent
  | { type: 'completed'; result: Result }
  | { type: 'failed'; error: SeekframeErrorData }
  | { type: 'cancelled'; reason: string };

export type JobListener<Result = unknown> = (event: JobEvent<Result>, job: JobSnapshot<Result>) => void;

/** What a runner gets besides the request. */
export interface JobRunContext {
  id: string;
  /** Aborted when the job is cancelled or the service shuts down; `reason` is an Error whose message says why. */
  signal: AbortSignal;
  /** The render's events; `stage` and `progress` update the job, `complete`/`error` are ignored (return or throw instead). */
  report(event: RenderEvent): void;
}

/**
 * Runs one job: resolves with its result or rejects (a SeekframeError keeps its code; anything
 * else becomes `render-failed`). A rejection after the signal was aborted counts as cancelled.
 */
export type JobRunner<Request, Result> = (request: Request, context: JobRunContext) => Promise<Result>;

export { isFinishedStatus } from '../http/job-status.js';
