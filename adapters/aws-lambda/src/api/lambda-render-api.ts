import type { Hono } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import type { WebhookGate } from '@seekframe/producer/webhooks';
import { lambdaEnv } from '../handlers/lambda-env.js';
import { checkRenderRequest, createJobService, createRenderApi, type JobServiceOptions, type RenderApiLimits } from '@seekframe/render-api';
import { folderSource } from '@seekframe/render-api/node';
import { lambdaError } from '../errors.js';
import { isRenderId, newRenderId, renderKeys } from '@seekframe/producer/distributed';
import { RENDER_RETENTION_DAYS } from '../storage/layout.js';
import { createLambdaRunner, type LambdaRunnerOptions } from './lambda-runner.js';
import { createObjectJobStore, idempotentRenderId } from './object-job-store.js';
import { pendingWork } from './pending-work.js';

/** Variables travel inside the render's records; anything bigger belongs in a file the page fetches by URL. */
const MAX_VARIABLES_BYTES = 256 * 1024;

/**
 * A Lambda render API's limits: the variables cap plus room for the rest of the body; no frame or
 * pixel cap of its own (a distributed render is for long ones; the chunk timeout bounds a chunk),
 * unless the deployment sets RENDER_MAX_FRAMES.
 */
const LAMBDA_LIMITS: RenderApiLimits = {
  maxBodyBytes: MAX_VARIABLES_BYTES + 16 * 1024,
  maxVariablesBytes: MAX_VARIABLES_BYTES,
  maxFrames: Number.MAX_SAFE_INTEGER,
  maxPixels: Number.MAX_SAFE_INTEGER,
  maxRenderSeconds: 24 * 3600,
  maxHtmlBytes: 0,
};

export interface LambdaApiOptions extends LambdaRunnerOptions {
  /**
   * Where the render API reads settings not given here (RENDER_API_TOKEN...): default the process
   * environment, with SST's '' for an unset secret read as unset (lambdaEnv).
   */
  env?: Record<string, string | undefined>;
  /** RENDER_API_TOKEN: every route but the OpenAPI document then needs it. */
  token?: string;
  /** Signed webhooks: the secret and the address rule a webhook URL must pass at POST. The
   *  step functions send the events (render-webhook-events.ts), so the API sends none. */
  webhooks?: WebhookGate;
  limits?: Partial<RenderApiLimits>;
  /** Lets the runner's start outlive the HTTP answer: the API handler waits for these before it
   *  returns, since a Lambda is frozen once it has. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** What StartedRender answers a direct `start` invoke. */
export interface StartedRender {
  id: string;
  status: 'queued';
  /** False when this id was already started with the same request (idempotent repeat). */
  created: boolean;
}

/**
 * The render API's job service over the bucket and the Lambda runner: one definition for the
 * HTTP face (createLambdaApiApp) and the typed client's direct invokes (startLambdaRender).
 */
function jobOptions(options: LambdaApiOptions): JobServiceOptions & { limits: RenderApiLimits } {
  const limits = { ...LAMBDA_LIMITS, ...options.limits };
  return {
    runner: createLambdaRunner(options),
    jobs: createObjectJobStore(options.store),
    // Without `list`: the bucket's lifecycle rules expire renders, the API never sweeps it.
    objects: withoutList(options.store),
    limits,
    retentionSeconds: RENDER_RETENTION_DAYS * 24 * 3600,
    newId: (input) => (input.idempotencyKey ? idempotentRenderId(input.idempotencyKey) : newRenderId()),
    outputKey: (id) => renderKeys(id).output,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
  };
}

/**
 * The API function behind the function URL: the render API every template mounts
 * (`createRenderApi`) in answer mode `async` (a start answers 202 at once; the render runs on the
 * other functions), over the Lambda runner and the job records in the bucket. It renders the
 * composition deployed with it (SEEKFRAME_COMPOSITION_DIR); `html` in the body is refused.
 */
export function createLambdaApiApp(options: LambdaApiOptions & { compositionDir: string }): Hono {
  return createRenderApi({
    ...jobOptions({ ...options, defaultProjectDir: options.compositionDir }),
    composition: folderSource(options.compositionDir),
    answerMode: 'async',
    allowCustomHtml: false,
    // Chunks join mp4 videos; a still is made by a template or `seekframe still`.
    allowStills: false,
    title: 'Seekframe render API (AWS Lambda)',
    env: lambdaEnv(options.env ?? process.env),
    ...(options.token ? { token: options.token } : {}),
  }) as unknown as Hono;
}

/**
 * A start by direct invoke (the typed client, after uploading the project under `id`): the
 * request's shape, size and webhook are checked here, its variables by the plan step against the
 * uploaded project (strictVariables), which fails the render with the same code.
 */
export async function startLambdaRender(options: LambdaApiOptions, input: { id: string; request: unknown }): Promise<StartedRender> {
  if (!isRenderId(input.id))
    throw lambdaError('invalid-body', `"${input.id}" is not a render id: use 8-64 lowercase letters, digits and dashes.`);
  const key = renderKeys(input.id).project;
  if (!options.defaultProjectDir && !(await options.store.head(key))) {
    throw lambdaError(
      'invalid-body',
      `No project for render ${input.id}: upload it to ${key} first (renderOnLambda does), or deploy the API with a composition.`,
    );
  }
  const work = pendingWork();
  const job = jobOptions({ ...options, waitUntil: work.waitUntil });
  const checked = await checkRenderRequest(JSON.stringify(input.request ?? {}), {
    composition: null,
    allowCustomHtml: false,
    allowStills: false,
    limits: job.limits,
    webhooks: options.webhooks,
  });
  // No origin here (an invoke, not a URL): the API sends no webhooks itself, so none is needed.
  const { created } = await createJobService(job).start({ ...checked, id: input.id }, { baseUrl: 'http://localhost' });
  await work.settle();
  // The caller polls the render's own records, which a failed start never wrote: say it now.
  const started = await job.jobs.get(input.id);
  if (started?.status === 'failed' && started.error) throw SeekframeError.fromJSON(started.error);
  return { id: input.id, status: 'queued', created };
}

/** The store seen without `list` (a render API then leaves expiry to the bucket's rules). */
function withoutList<T extends { list?: unknown }>(store: T): Omit<T, 'list'> {
  const { list: _list, ...rest } = store;
  return rest;
}
