import { z } from 'zod';
import type { FrameSpan, SeekframeErrorData, StillAt } from '@seekframe/composition';
import { WebhookAttemptSchema, type WebhookAttempt, type WebhookRequest } from '@seekframe/producer/webhooks';
import {
  isFinishedStatus,
  JOB_STATUSES,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  type JobStatus,
  type RenderFormat,
  type RenderQuality,
} from '@seekframe/producer/http';

export { JOB_STATUSES, RENDER_FORMATS, RENDER_QUALITIES, type JobStatus, type RenderFormat, type RenderQuality };

/**
 * A render job as every template stores it (in memory, in Durable Object storage, as Blob JSON).
 * Plain JSON on purpose: it crosses processes and platforms. Dates are ISO strings.
 */

/** Pipeline stages, the same names as the producer's `RenderStage` (`{type:'stage'}` events). */
export const JOB_STAGES = ['lint', 'load', 'variables', 'serve', 'media', 'capture', 'finish'] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** The validated body of `POST /api/render` (variables already checked against the declarations). */
export interface RenderJobRequest {
  variables: Record<string, unknown>;
  format: RenderFormat;
  quality?: RenderQuality;
  /** Whole frames per second, 1-240; absent = the composition's own fps. */
  fps?: number;
  /** Only these composition frames (both included); absent = every frame. Runners pass it on as `--frames start-end`. */
  frames?: FrameSpan;
  /**
   * A still instead of a video (`seekframe still --time <t>s` or `--frame <n>`): the output is a
   * PNG (see jobOutput); `format` is then not used.
   */
  still?: StillAt;
  /** A whole composition document; present only when the deployment allows custom HTML. */
  html?: string;
  /** Where the render's signed events go (checked against the address rules at POST). */
  webhook?: WebhookRequest;
}

const VIDEO_OUTPUTS: Record<RenderFormat, { extension: string; contentType: string }> = {
  mp4: { extension: 'mp4', contentType: 'video/mp4' },
  webm: { extension: 'webm', contentType: 'video/webm' },
  mov: { extension: 'mov', contentType: 'video/quicktime' },
  gif: { extension: 'gif', contentType: 'image/gif' },
};

/** The file a job makes: its extension and media type (a still is a PNG, a video its format's). */
export function jobOutput(request: Pick<RenderJobRequest, 'format' | 'still'>): { extension: string; contentType: string } {
  return request.still ? { extension: 'png', contentType: 'image/png' } : VIDEO_OUTPUTS[request.format];
}

/** The CLI flags that pick a still's frame (`seekframe still`): `--time 1.5s` or `--frame 45`. */
export function stillFlags(still: StillAt): string[] {
  return 'time' in still ? ['--time', `${still.time}s`] : ['--frame', String(still.frame)];
}

/** Where the finished file is, as `POST /api/render` (sync mode) answers it. The schemas here are also the types, and the OpenAPI document's (openapi-document.ts). */
export const RenderJobResultSchema = z.object({
  url: z.string().describe("Where a client downloads it: the store's own URL, else `/api/render/<id>` on this app."),
  key: z.string().describe('The object store key (`renders/<id>.<ext>`).'),
  durationMs: z.number().describe('Wall time of the render in milliseconds.'),
  size: z.number().int().optional().describe('Bytes of the file.'),
  contentType: z.string().optional(),
});
export type RenderJobResult = z.output<typeof RenderJobResultSchema>;

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
  /** What the runner adds to the progress (RenderRunner.progressFields describes it). */
  runnerProgress?: Record<string, unknown>;
}

/** The fields a runner or the API changes on a job while it runs. */
export type JobUpdate = Partial<
  Pick<
    RenderJob,
    'status' | 'stage' | 'progress' | 'framesRendered' | 'totalFrames' | 'result' | 'error' | 'webhookAttempts' | 'runnerProgress'
  >
>;

/** The public view of a running job (`GET /api/render/:id` while queued or running). */
export const JobProgressSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  stage: z.enum(JOB_STAGES).nullable().describe('The pipeline stage running now; null before the first.'),
  progress: z.number().min(0).max(1).describe('0..1'),
  framesRendered: z.number().int().min(0),
  totalFrames: z.number().int().nullable(),
  webhook: z
    .object({ url: z.string(), attempts: z.array(WebhookAttemptSchema) })
    .optional()
    .describe('Present when the render was started with a `webhook`: where it posts, and each attempt.'),
});
export type JobProgress = z.output<typeof JobProgressSchema>;

/**
 * The origin the API was reached at (`https://x.example`), from the request: a webhook's
 * `render.completed` makes a relative output URL absolute with it, and a runner that sends the
 * events itself gets it as `origin`.
 */
export interface JobRequestContext {
  baseUrl: string;
}

/** A render request that passed its checks (`checkRenderRequest`), ready to become a job. */
export interface StartJobInput {
  request: RenderJobRequest;
  /** null when the composition is not known at start (a project the caller uploaded). */
  totalFrames: number | null;
  bodyHash: string;
  idempotencyKey?: string;
  /**
   * An id the caller chose (the typed Lambda client uploads the project under it first). The job
   * store's `create` then answers `created: false` with the job an id already names, and a repeat
   * with another body is 409 `idempotency-conflict`, as with an Idempotency-Key.
   */
  id?: string;
}

/** The shared `isFinishedStatus` (@seekframe/producer/http) under this package's name. */
export const isFinished = isFinishedStatus;

/**
 * What every job store's `update` stores: the fields merged and a fresh `updatedAt`. A finished
 * job keeps its ending (a late progress or completion must not undo a cancel); only its webhook
 * attempts still change, since the last event is delivered, and retried, after the job ended.
 * Answers `job` itself when nothing changes, so a store can skip the write.
 */
export function mergeJobUpdate(job: RenderJob, update: JobUpdate, updatedAt: string): RenderJob {
  if (!isFinished(job.status)) return { ...job, ...update, updatedAt };
  return update.webhookAttempts === undefined ? job : { ...job, webhookAttempts: update.webhookAttempts, updatedAt };
}
