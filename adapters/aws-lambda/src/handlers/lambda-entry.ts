import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { ExecutionAlreadyExists, ExecutionDoesNotExist, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { handle } from 'hono/aws-lambda';
import { createBrowserPool } from '@seekframe/engine';
import { SeekframeError } from '@seekframe/composition';
import { renderApiSettings } from '@seekframe/render-api';
import { lambdaEnv } from './lambda-env.js';
import { handleApiInvoke, isApiInvokeEvent } from '../api/api-invoke.js';
import { createLambdaApiApp, type LambdaApiOptions } from '../api/lambda-render-api.js';
import { pendingWork } from '../api/pending-work.js';
import { classifyFailure, LambdaFailure } from '../retry/retry-table.js';
import { producerCore, systemRuntime } from '@seekframe/producer/distributed';
import { createS3ObjectStore } from '@seekframe/s3-storage';
import { webhooksFromEnv } from '../webhooks/webhooks-from-env.js';
import { pricingForRegion } from '../progress/cost.js';
import { assembleHandler, type AssembleEvent } from './assemble-handler.js';
import { failHandler, type FailEvent } from './fail-handler.js';
import type { HandlerDeps } from './handler-deps.js';
import { planHandler, type PlanEvent } from './plan-handler.js';
import { renderChunkHandler, type RenderChunkEvent } from './render-chunk-handler.js';

/**
 * The functions sst.config.ts deploys (handler `.../lambda-entry.plan` etc.). Settings come from
 * the environment sst.config.ts sets: SEEKFRAME_BUCKET, SEEKFRAME_STATE_MACHINE_ARN (api),
 * SEEKFRAME_MAX_CONCURRENCY, SEEKFRAME_ACCOUNT_CONCURRENCY, SEEKFRAME_CHUNK_TIMEOUT_SECONDS,
 * SEEKFRAME_COMPOSITION_DIR (api: what POST /api/render renders), SEEKFRAME_FAIL_FUNCTION (api: the
 * fail function, which announces a cancel to the render's webhook), SEEKFRAME_RUNTIME_BUNDLE,
 * RENDER_API_TOKEN, RENDER_WEBHOOK_SECRET (all functions: signed webhooks).
 */
interface LambdaContext {
  getRemainingTimeInMillis(): number;
  memoryLimitInMB: string;
}

const env = process.env;
const s3 = new S3Client({});
const webhookSettings = webhooksFromEnv(env);
const store = createS3ObjectStore(s3, required('SEEKFRAME_BUCKET'));

function required(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set; sst.config.ts sets it for every Seekframe function.`);
  return value;
}

// One warm browser per instance, kept between invocations (a frozen instance keeps it; a chunk
// leases it in a fresh context). It closes after 10 idle minutes of a thawed instance; a crashed
// or tainted browser is replaced by the pool, never reused.
const browsers = createBrowserPool({ maxBrowsers: 1, idleCloseMs: 10 * 60_000 });

let deps: Promise<HandlerDeps> | undefined;
function handlerDeps(context: LambdaContext): Promise<HandlerDeps> {
  deps ??= Promise.resolve(producerCore).then((core) => ({
    store,
    core,
    runtime: systemRuntime(),
    workRoot: path.join(os.tmpdir(), 'seekframe'),
    sweepOtherRenders: true,
    browsers,
    memoryMb: Number(context.memoryLimitInMB) || 0,
    ...(webhookSettings.webhooks ? { webhooks: webhookSettings.webhooks } : {}),
    // A bundled function (the API's zip) has no node_modules/@seekframe/runtime: sst.config.ts copies the bundle.
    ...(env.SEEKFRAME_RUNTIME_BUNDLE ? { runtimeSource: () => readFile(path.resolve(env.SEEKFRAME_RUNTIME_BUNDLE!), 'utf8') } : {}),
  }));
  return deps;
}

export const plan = async (event: PlanEvent, context: LambdaContext) => planHandler(await handlerDeps(context), event);
export const renderChunk = async (event: RenderChunkEvent, context: LambdaContext) =>
  renderChunkHandler(await handlerDeps(context), event, { remainingMs: context.getRemainingTimeInMillis() });
export const assemble = async (event: AssembleEvent, context: LambdaContext) => assembleHandler(await handlerDeps(context), event);
export const fail = async (event: FailEvent) =>
  failHandler({ store, ...(webhookSettings.webhooks ? { webhooks: webhookSettings.webhooks } : {}) }, event);

function apiOptions(): LambdaApiOptions {
  const sfn = new SFNClient({});
  const stateMachineArn = required('SEEKFRAME_STATE_MACHINE_ARN');
  const number = (name: string): number | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new SeekframeError(
        'invalid-server-options',
        `${name} must be a whole number of at least 1 (got "${raw}"); sst.config.ts sets it.`,
        {
          stage: 'config',
          details: { variable: name },
        },
      );
    return Number(raw);
  };
  const maxConcurrency = number('SEEKFRAME_MAX_CONCURRENCY');
  const accountConcurrency = number('SEEKFRAME_ACCOUNT_CONCURRENCY');
  // The settings every render API reads the same way (a blank token refused, not read as none);
  // SST's '' for a secret nobody set means unset (lambdaEnv).
  const shared = renderApiSettings({}, lambdaEnv(env));
  return {
    env,
    store,
    chunking: { ...(maxConcurrency ? { maxConcurrency } : {}), ...(accountConcurrency ? { accountConcurrency } : {}) },
    chunkTimeoutSeconds: number('SEEKFRAME_CHUNK_TIMEOUT_SECONDS') ?? 900,
    webhooks: webhookSettings.gate,
    // The cost estimate at this region's prices (AWS_REGION is set in every Lambda).
    pricing: pricingForRegion(env.AWS_REGION),
    ...(env.SEEKFRAME_COMPOSITION_DIR ? { defaultProjectDir: path.resolve(env.SEEKFRAME_COMPOSITION_DIR) } : {}),
    ...(shared.token ? { token: shared.token } : {}),
    ...(shared.limits?.maxFrames ? { limits: { maxFrames: shared.limits.maxFrames } } : {}),
    async startWorkflow(renderId, name) {
      try {
        // One name per start of a render (lambda-runner's executionName): a repeated start is a no-op.
        await sfn.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify({ renderId }) }));
      } catch (error) {
        if (!(error instanceof ExecutionAlreadyExists)) throw error;
      }
    },
    // A cancelled render's render.failed: the fail function (SEEKFRAME_FAIL_FUNCTION) sends it
    // with its retries; invoked without waiting, so DELETE answers at once.
    ...(webhookSettings.webhooks
      ? {
          async notifyCancelled(renderId: string) {
            const event: FailEvent = { renderId, cancelled: true };
            await new LambdaClient({}).send(
              new InvokeCommand({
                FunctionName: required('SEEKFRAME_FAIL_FUNCTION'),
                InvocationType: 'Event',
                Payload: Buffer.from(JSON.stringify(event)),
              }),
            );
          },
        }
      : {}),
    async stopWorkflow(_renderId, name) {
      // arn:aws:states:<region>:<account>:stateMachine:<machine> -> ...:execution:<machine>:<name>
      const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
      try {
        await sfn.send(new StopExecutionCommand({ executionArn, error: 'Seekframe.Cancelled', cause: 'DELETE /api/render/:id' }));
      } catch (error) {
        // Never started (its start failed): there is nothing to stop.
        if (!(error instanceof ExecutionDoesNotExist)) throw error;
      }
    },
  };
}

let options: LambdaApiOptions | undefined;
let http: { handle: ReturnType<typeof handle>; work: ReturnType<typeof pendingWork> } | undefined;

/**
 * Function URL requests go to the render API (createLambdaApiApp); direct invokes
 * ({type:'start'|'progress'}) to the typed client's API. The runner's start is awaited before
 * the answer returns (pendingWork): a Lambda is frozen once it has answered.
 */
export const api = async (event: unknown, context: unknown) => {
  options ??= apiOptions();
  if (isApiInvokeEvent(event)) {
    try {
      return await handleApiInvoke(options, event);
    } catch (error) {
      // A typed error crosses the Invoke API as our LambdaFailure JSON (the client rebuilds it).
      throw new LambdaFailure(classifyFailure(error));
    }
  }
  if (!http) {
    const work = pendingWork();
    const compositionDir = options.defaultProjectDir ?? path.resolve(required('SEEKFRAME_COMPOSITION_DIR'));
    http = { work, handle: handle(createLambdaApiApp({ ...options, compositionDir, waitUntil: work.waitUntil })) };
  }
  const answer = await http.handle(event as never, context as never);
  await http.work.settle();
  return answer;
};
