import type { SeekframeErrorData } from '@seekframe/composition';
import type { WebhookAttempt, WebhookRequest } from '@seekframe/producer/webhooks';
import { isFinishedStatus, RENDER_FORMATS, RENDER_QUALITIES, type JobStatus, type RenderFormat, type RenderQuality } from '@seekframe/producer/http';

export { RENDER_FORMATS, RENDER_QUALITIES, type JobStatus, type RenderFormat, type RenderQuality };

/**
 * A render job as every template stores it (in memory, in Durable Object storage, as Blob JSON).
 * Plain JSON on purpose: it crosses processes and platforms. Dates are ISO strings.
 */

/** Pipeline stages, the same names as the producer's `RenderStage` (`{type:'stage'}` events). */
export type JobStage = 'lint' | 'load' | 'variables' | 'serve' | 'media' | 'capture' | 'finish';

/** The validated body of `POST /api/render` (variables already checked against the declarations). */
export interface RenderJobRequest {
  variables: Record<string, unknown>;
  format: RenderFormat;
  quality?: RenderQuality;
  /** Whole frames per second, 1-240; absent = the composition's own fps. */
  fps?: number;
  /** A whole composition document; present only when the deployment allows custom HTML. */
  html?: string;
  /** Where the render's signed events go (checked against the address rules at POST). */
  webhook?: WebhookRequest;
}

/** Where the finished file is, as `POST /api/render` (sync mode) answers it. */
export interface RenderJobResult {
  /** Where a client downloads it: the store's own URL, else `/api/render/<id>` on this app. */
  url: string;
  /** The object store key (`renders/<id>.<ext>`). */
  key: string;
  /** Wall time of the render in milliseconds. */
  durationMs: number;
  size?: number;
  contentType?: string;
}

export interface RenderJob {
  id: string;
  status: JobStatus;
  stage: JobStage | null;
  /** 0..1 */
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  /** The validated request without its `html` (only the runner needs it, at start). */
  request: RenderJobRequest;
  /** The key the runner must store the output under. */
  outputKey: string;
  result?: RenderJobResult;
  error?: SeekframeErrorData;
  createdAt: string;
  updatedAt: string;
  /** After this the job answers 410 `render-expired`. */
  expiresAt: string;
  idempotencyKey?: string;
  /** SHA-256 (hex) of the request body, for Idempotency-Key conflicts. */
  bodyHash?: string;
  /** Every webhook delivery attempt so far (when the request has a `webhook`). */
  webhookAttempts?: WebhookAttempt[];
}

/** The fields a runner or the API changes on a job while it runs. */
export type JobUpdate = Partial<Pick<RenderJob, 'status' | 'stage' | 'progress' | 'framesRendered' | 'totalFrames' | 'result' | 'error' | 'webhookAttempts'>>;

/** The public view of a running job (`GET /api/render/:id` while queued or running). */
export interface JobProgress {
  id: string;
  status: JobStatus;
  stage: JobStage | null;
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  /** Present when the render was started with a `webhook`: where it posts, and each attempt. */
  webhook?: { url: string; attempts: WebhookAttempt[] };
}

/** The shared `isFinishedStatus` (@seekframe/producer/http) under this package's name. */
export const isFinished = isFinishedStatus;
