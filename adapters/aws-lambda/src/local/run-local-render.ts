import type { WebhookGate } from '@seekframe/producer/webhooks';
import { startLambdaRender, type LambdaApiOptions } from '../api/lambda-render-api.js';
import { readRenderProgress } from '../api/render-progress.js';
import { DEFAULT_ACCOUNT_CONCURRENCY } from '../chunks/plan-lambda-chunks.js';
import { assembleHandler } from '../handlers/assemble-handler.js';
import { failHandler } from '../handlers/fail-handler.js';
import type { AssembleOutput, HandlerDeps } from '../handlers/handler-deps.js';
import { planHandler } from '../handlers/plan-handler.js';
import { renderChunkHandler } from '../handlers/render-chunk-handler.js';
import { newRenderId } from '@seekframe/producer/distributed';
import { runLocalPipeline, type LocalPipelineOptions, type StepInvokers } from '../orchestration/local-pipeline.js';
import type { DistributedProgress } from '../progress/aggregate-progress.js';
import type { RenderRequestBody, StoredRequest } from '../progress/progress-records.js';

export interface LocalRenderOptions extends Omit<HandlerDeps, 'memoryMb'> {
  projectDir: string;
  request?: RenderRequestBody;
  id?: string;
  chunking?: StoredRequest['chunking'];
  /** Chunks rendered at once (the Map's concurrency); default: the chunking caps. */
  maxConcurrency?: number;
  /** Milliseconds per attempt of each step (default: the Lambda limits, 300/900/900 s). */
  timeouts?: LocalPipelineOptions['timeouts'];
  memoryMb?: number;
  sleep?: LocalPipelineOptions['sleep'];
  onAttempt?: LocalPipelineOptions['onAttempt'];
  /** Replaces steps (fault injection in tests; the Lambda Invoke API in other runners). */
  invokers?: (local: StepInvokers) => StepInvokers;
  /** The POST-time webhook check (secret + address rule), as the API function's service has it. */
  webhookGate?: WebhookGate;
}

/**
 * A whole distributed render on this machine: the request and project go into the store as the
 * API function puts them, then the plan, chunk and assemble handlers run in-process under
 * runLocalPipeline (the state machine's retry table and timeouts). The same code path as on
 * Lambda, with this machine's binaries.
 */
export async function runLocalRender(
  options: LocalRenderOptions,
): Promise<{ renderId: string; output: AssembleOutput['output']; progress: DistributedProgress }> {
  const chunking = options.chunking ?? {};
  const timeouts = options.timeouts ?? { plan: 300_000, renderChunk: 900_000, assemble: 900_000 };
  const api: LambdaApiOptions = {
    store: options.store,
    chunking,
    chunkTimeoutSeconds: Math.round(timeouts.renderChunk / 1000),
    defaultProjectDir: options.projectDir,
    startWorkflow: async () => undefined,
    ...(options.now ? { now: options.now } : {}),
    ...(options.webhookGate ? { webhooks: options.webhookGate } : {}),
  };
  const started = await startLambdaRender(api, { id: options.id ?? newRenderId(), request: options.request ?? {} });
  const { webhookGate: _gate, ...handlerOptions } = options;
  const deps: HandlerDeps = { ...handlerOptions, memoryMb: options.memoryMb ?? 0 };
  const local: StepInvokers = {
    plan: (event) => planHandler(deps, event),
    renderChunk: (event, signal) => renderChunkHandler(deps, event, { signal }),
    assemble: (event) => assembleHandler(deps, event),
    fail: (event) => failHandler(deps, event),
  };
  const invokers = options.invokers ? options.invokers(local) : local;
  const result = await runLocalPipeline(invokers, {
    renderId: started.id,
    maxConcurrency: options.maxConcurrency ?? chunking.maxConcurrency ?? chunking.accountConcurrency ?? DEFAULT_ACCOUNT_CONCURRENCY,
    timeouts,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
  });
  return { renderId: started.id, output: result.output, progress: await readRenderProgress(api, started.id) };
}
