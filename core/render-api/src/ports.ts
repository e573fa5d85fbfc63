import type { SeekframeErrorData } from '@seekframe/composition';
import type { z } from 'zod';
import type { JobStage, JobUpdate, RenderJob, RenderJobRequest } from './render-job.js';

/**
 * The three platform capabilities a template fills in, each one small object (like the core's
 * LintHost): where a render runs, where job records live, where files live. Every method is
 * async because Durable Object storage, Blob and R2 are.
 */

// ---------------------------------------------------------------------------------------------
// Object store: the core's StoragePort (core/producer/src/storage/storage-port.ts), declared once
// there and imported here as a type only, so this Worker-safe graph loads no Node code for it.

export type {
  ByteRange,
  StorageBody as ObjectBody,
  StorageObjectInfo as ObjectInfo,
  StoragePort as ObjectStore,
} from '@seekframe/producer/storage-port';

// ---------------------------------------------------------------------------------------------
// Job store

export interface JobStore {
  /**
   * Stores a new job. When `job.idempotencyKey` is set and a job with that key already exists,
   * stores nothing and returns `{created:false, job: existing}` (atomically, so two concurrent
   * requests with one key make one render). Likewise when a job with `job.id` exists (a caller
   * that chose the id, StartJobInput.id): `{created:false, job: existing}`.
   */
  create(job: RenderJob): Promise<{ created: boolean; job: RenderJob }>;
  get(id: string): Promise<RenderJob | null>;
  /** The job created with this Idempotency-Key, if any. */
  findByIdempotencyKey(key: string): Promise<RenderJob | null>;
  /** Merges `update` (and a fresh `updatedAt`) into the job; null when it does not exist. */
  update(id: string, update: JobUpdate): Promise<RenderJob | null>;
  /** Jobs queued or running right now; used for 429 at `maxConcurrentRenders`. Omit it when the
   *  platform cannot count (then only the runner's `too-many-renders` refusal gives 429). */
  countActive?(): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// Runner

/**
 * The events a runner reports: the CLI's `--json` lines, i.e. the producer's `RenderEvent`
 * objects (stage/progress/warning/complete/error), unchanged.
 */
export type RunnerEvent =
  | { type: 'stage'; stage: JobStage }
  | { type: 'progress'; stage: JobStage; framesRendered: number; totalFrames: number; percent: number; fps: number; eta: number | null }
  | { type: 'warning'; code: string; message: string; details?: Record<string, unknown> }
  | { type: 'complete'; output: string; size: number; durationMs: number; videoDuration: number }
  | { type: 'error'; error: SeekframeErrorData };

/** What the API hands a runner: the job and the limits it must enforce. */
export interface RunnerJob {
  id: string;
  request: RenderJobRequest;
  /** Store the finished file in the object store under exactly this key. */
  outputKey: string;
  contentType: string;
  /** `seekframe render --max-frames/--max-render-seconds/--max-memory`: the render cancels itself
   *  with `render-timeout` past the wall time, `memory-limit-exceeded` past the memory bound
   *  (unset: the CLI's default per browser). */
  limits: { maxFrames: number; maxRenderSeconds: number; maxPixels: number; maxMemoryMB?: number };
  /** The origin the render was requested at (`https://x.example`): a runner that sends the job's
   *  webhook events itself makes a relative output URL absolute with it. */
  origin?: string;
}

export interface RunnerContext {
  /** Report an event; the API turns it into job store updates (throttled). */
  emit(event: RunnerEvent): void;
  /** Aborted when the job is cancelled through this app instance. */
  signal: AbortSignal;
}

/**
 * How `start` ended:
 * - `stored`: the output is in the object store under `outputKey` (local, container).
 * - `detached`: the render goes on elsewhere (a detached sandbox command); the API then asks
 *   `poll(job)` on each status request until it reports a finished status.
 * A failed render rejects with a SeekframeError (or resolves after emitting an `error` event).
 * A runner at capacity rejects with code `too-many-renders` (answered 429 + Retry-After).
 */
export type RunnerOutcome = { kind: 'stored'; durationMs?: number; size?: number } | { kind: 'detached' };

export interface RenderRunner {
  start(job: RunnerJob, context: RunnerContext): Promise<RunnerOutcome>;
  /** Stops the render if it runs (idempotent; unknown ids are ignored). */
  cancel(id: string): Promise<void>;
  /** Detached runners: the job's current state, or null when nothing new is known. */
  poll?(job: RenderJob): Promise<JobUpdate | null>;
  /**
   * The runner delivers the job's webhooks itself (Lambda: its step functions), so the attempts of
   * the last event are recorded after the job finished: a status request of a finished job with a
   * webhook still asks `poll`, and takes only its `webhookAttempts`.
   */
  deliversWebhooks?: boolean;
  /**
   * The fields this runner adds to a job's progress (`runnerProgress` in its updates), as a zod
   * object: `GET /api/render/:id` answers them next to the shared fields and the OpenAPI document
   * describes them from here (the Lambda runner: chunks done/total, the cost estimate). Its
   * updates should be checked against it (`satisfies z.input<typeof schema>`).
   */
  progressFields?: z.ZodObject;
}

// ---------------------------------------------------------------------------------------------
// Static sources for the preview page

/** A file by relative POSIX path (`index.html`, `assets/logo.png`); null when absent. The
 *  implementation must refuse paths that leave its root (the API already rejects `..`). */
export interface FileSource {
  read(path: string): Promise<{ body: ReadableStream<Uint8Array> | Uint8Array | string; contentType?: string } | null>;
}

/** The template's composition folder as written (Node: a folder; Worker: bundled files): its
 *  metadata and what renders. Its entry is `index.html`. The preview's files are `compositionFiles`. */
export type CompositionSource = FileSource;

/**
 * The preview page's built assets: `app.js` (core/render-api/dist/preview/app.js, exported
 * as `@seekframe/render-api/preview/app.js`) and `seekframe-player.js` (`@seekframe/player/bundle`).
 */
export type PreviewAssets = FileSource;
