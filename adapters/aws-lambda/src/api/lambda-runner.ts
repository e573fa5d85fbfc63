import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { putFile } from '@seekframe/producer';
import { SeekframeError } from '@seekframe/composition';
import type { JobStage, JobUpdate, RenderJobRequest, RenderRunner } from '@seekframe/render-api';
import { lambdaError } from '../errors.js';
import type { DistributedProgress, DistributedStage } from '../progress/aggregate-progress.js';
import type { FinalStatus, RenderRequestBody, StoredRequest } from '../progress/progress-records.js';
import { getJson, packProject, putJson, renderKeys } from '@seekframe/producer/distributed';
import type { LambdaStore } from '../storage/lambda-store.js';
import { lambdaProgressFields, LambdaProgressFieldsSchema } from './lambda-progress-fields.js';
import { readRenderProgress, type ProgressReader } from './render-progress.js';

export interface LambdaRunnerOptions extends ProgressReader {
  store: LambdaStore;
  /**
   * Starts the workflow of a render (Step Functions StartExecution named `executionName`, or
   * nothing where a test or the local runner drives it). Idempotent per name.
   */
  startWorkflow(renderId: string, executionName: string): Promise<void>;
  /** Stops it (Step Functions StopExecution); absent where nothing runs elsewhere. */
  stopWorkflow?(renderId: string, executionName: string): Promise<void>;
  /**
   * Has the render's webhook told that it was cancelled (render.failed, code render-cancelled, its
   * last event), after the API recorded the cancel: a stopped execution runs no fail step, and the
   * API's own 30 s could not hold the delivery's retries, so lambda-entry.ts invokes the fail
   * function without waiting (FailEvent.cancelled). Absent: no event.
   */
  notifyCancelled?(renderId: string): Promise<void>;
  chunking: StoredRequest['chunking'];
  chunkTimeoutSeconds: number;
  /** A project folder to render when the caller uploaded none (the deployment's composition). */
  defaultProjectDir?: string;
}

/**
 * The Step Functions execution of a render: its id and the time its request was first stored.
 * Step Functions keeps a name for 90 days and the bucket a render for 30, so an id can come back
 * (an Idempotency-Key reused after its render expired) while its old name is still taken; the
 * time makes the new start a new execution. At most 64 + 1 + 9 characters of [a-z0-9-] (limit 80).
 */
export function executionName(renderId: string, createdAt: string): string {
  return `${renderId}-${Date.parse(createdAt).toString(36)}`;
}

/** The shared job stages the distributed steps stand for (the step itself is `step` in the progress). */
const STAGES: Record<DistributedStage, JobStage> = { plan: 'load', render: 'capture', assemble: 'finish', done: 'finish' };

/**
 * The render API's runner on AWS Lambda, a detached one: `start` puts the request (and the
 * deployment's project, unless the caller uploaded one) into the bucket and starts the Step
 * Functions execution named after the render, then returns; the plan, chunk and assemble
 * functions do the work and write their progress to the bucket, and `poll` reads it back into
 * the job (with the chunks and cost as the runner's own progress fields). `cancel` stops the
 * execution and records the render cancelled.
 */
export function createLambdaRunner(options: LambdaRunnerOptions): RenderRunner {
  const { store } = options;
  const now = options.now ?? Date.now;
  return {
    progressFields: LambdaProgressFieldsSchema,
    // The fail and assemble steps send render.failed / render.completed after the status record.
    deliversWebhooks: true,
    async start(job) {
      const keys = renderKeys(job.id);
      if (!(await store.head(keys.project))) await uploadDefaultProject(options, job.id);
      const stored: StoredRequest = {
        id: job.id,
        createdAt: new Date(now()).toISOString(),
        request: lambdaRequest(job.request),
        chunking: options.chunking,
        chunkTimeoutSeconds: options.chunkTimeoutSeconds,
        // Unset, the Lambda API's frame limit is no limit (LAMBDA_LIMITS): nothing to store.
        ...(Number.isSafeInteger(job.limits.maxFrames) && job.limits.maxFrames < Number.MAX_SAFE_INTEGER
          ? { limits: { maxFrames: job.limits.maxFrames } }
          : {}),
      };
      // A repeated start of one id (a retried invoke) keeps the first record, and so its execution.
      const { created } = await putJson(store, keys.request, stored, { ifNoneMatch: '*' });
      const first = created ? stored : ((await getJson<StoredRequest>(store, keys.request)) ?? stored);
      const name = executionName(job.id, first.createdAt);
      // A DELETE may land while start still uploads: start and cancel each write their record
      // first and read the other's after (see cancel), so one of them always sees both.
      if (await isCancelled(store, job.id)) {
        if (first.request.webhook) await options.notifyCancelled?.(job.id);
        return { kind: 'detached' };
      }
      await options.startWorkflow(job.id, name);
      // Cancelled while the execution was starting: cancel may have tried to stop it too early.
      if (await isCancelled(store, job.id)) await options.stopWorkflow?.(job.id, name);
      return { kind: 'detached' };
    },
    async poll(job) {
      try {
        return jobUpdate(await readRenderProgress(options, job.id));
      } catch (error) {
        // Not started yet (the request record is written by start): nothing new to tell.
        if (error instanceof SeekframeError && error.code === 'render-not-found') return null;
        throw error;
      }
    },
    async cancel(id) {
      const status: FinalStatus = { status: 'cancelled', finishedAt: new Date(now()).toISOString() };
      // Create-only: a render that finished meanwhile keeps its own status (and its own last event).
      const { created } = await putJson(store, renderKeys(id).status, status, { ifNoneMatch: '*' });
      // Read after the status is written: a start that stores its request later sees the cancel
      // and neither starts the execution nor stays silent (start above). Without a request record
      // here, that start does both; with one, both sides may announce the cancel, and the fail
      // step's claim on webhooks/render.failed.json sends it once.
      const request = await getJson<StoredRequest>(store, renderKeys(id).request);
      if (!request) return;
      await options.stopWorkflow?.(id, executionName(id, request.createdAt));
      if (created && request.request.webhook) await options.notifyCancelled?.(id);
    },
  };
}

/** True once the render's status record says cancelled (DELETE /api/render/:id wrote it). */
async function isCancelled(store: LambdaStore, id: string): Promise<boolean> {
  return (await getJson<FinalStatus>(store, renderKeys(id).status))?.status === 'cancelled';
}

async function uploadDefaultProject(options: LambdaRunnerOptions, id: string): Promise<void> {
  const key = renderKeys(id).project;
  if (!options.defaultProjectDir) {
    throw lambdaError(
      'invalid-body',
      `No project for render ${id}: upload it to ${key} first (renderOnLambda does), or deploy the API with a composition.`,
    );
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-pack-'));
  try {
    const archive = path.join(dir, 'project.tar.gz');
    await packProject(options.defaultProjectDir, archive);
    await putFile(options.store, key, archive, { contentType: 'application/gzip' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The request as the plan step reads it (request.json); `html` never reaches a Lambda render. */
function lambdaRequest(request: RenderJobRequest): RenderRequestBody {
  const { variables, format, quality, fps, frames, webhook } = request;
  return {
    variables,
    format,
    ...(quality ? { quality } : {}),
    ...(fps !== undefined ? { fps } : {}),
    ...(frames ? { frames } : {}),
    ...(webhook ? { webhook } : {}),
  };
}

/** A distributed progress as a job update: the shared fields, the result or error, and the runner's own fields. */
export function jobUpdate(progress: DistributedProgress): JobUpdate {
  const { output } = progress;
  return {
    status: progress.status,
    stage: STAGES[progress.stage],
    progress: progress.progress,
    framesRendered: progress.framesRendered,
    totalFrames: progress.totalFrames,
    runnerProgress: lambdaProgressFields(progress),
    ...(progress.webhook ? { webhookAttempts: progress.webhook.attempts } : {}),
    ...(progress.status === 'completed' && output
      ? {
          result: {
            url: output.url ?? output.key,
            key: output.key,
            durationMs: Math.max(0, Date.parse(progress.updatedAt) - Date.parse(progress.createdAt)),
            size: output.size,
            contentType: 'video/mp4',
          },
        }
      : {}),
    ...(progress.status === 'failed' && progress.error ? { error: progress.error } : {}),
  };
}
