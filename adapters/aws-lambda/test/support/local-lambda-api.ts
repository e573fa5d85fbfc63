import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { BrowserPool } from '@seekframe/engine';
import { renderApiSettingsFromEnv } from '@seekframe/render-api';
import { type ContractSettings, type ContractTarget, contractSettingsEnv } from '@seekframe/render-api/contract-suite';
import { createLambdaApiApp, type LambdaApiOptions } from '../../src/api/lambda-render-api.js';
import { pendingWork } from '../../src/api/pending-work.js';
import { assembleHandler } from '../../src/handlers/assemble-handler.js';
import { failHandler } from '../../src/handlers/fail-handler.js';
import type { HandlerDeps } from '../../src/handlers/handler-deps.js';
import { planHandler } from '../../src/handlers/plan-handler.js';
import { renderChunkHandler } from '../../src/handlers/render-chunk-handler.js';
import { runLocalPipeline } from '../../src/orchestration/local-pipeline.js';
import { pricingForRegion } from '../../src/progress/cost.js';
import { type RenderCore, systemRuntime } from '@seekframe/producer/distributed';
import { webhooksFromEnv } from '../../src/webhooks/webhooks-from-env.js';
import { type LocalS3, startLocalS3 } from '../../../s3-storage/test/support/local-s3.js';

/**
 * How long a stopped render's steps may take to let go on a machine that barely runs them (the
 * steps in flight are aborted at once; a browser closing under load takes a moment).
 */
const STEPS_LET_GO_MS = 60_000;

export interface LocalLambdaApiOptions {
  /** The composition the API renders (SEEKFRAME_COMPOSITION_DIR). */
  compositionDir: string;
  core: RenderCore;
  /** Warm browsers the chunks lease (a warm Lambda keeps one), shared by every target of a test file. */
  browsers: BrowserPool;
}

/**
 * The Lambda render API as a deployment serves it, on this machine: the API function's Hono app
 * (createLambdaApiApp, wired from the same settings lambda-entry.ts reads) on 127.0.0.1, the
 * bucket in s3rver behind the strict proxy, and each render's state machine run by the local
 * pipeline with the plan, chunk, assemble and fail handlers in process (Step Functions'
 * StartExecution and StopExecution as startWorkflow and stopWorkflow). For the render API
 * contract suite.
 */
export async function startLocalLambdaApi(settings: ContractSettings, options: LocalLambdaApiOptions): Promise<ContractTarget> {
  const env = contractSettingsEnv(settings);
  const shared = renderApiSettingsFromEnv(env);
  const webhookSettings = webhooksFromEnv(env);
  const s3: LocalS3 = await startLocalS3({ strict: true });
  const workRoot = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-contract-'));
  const deps: HandlerDeps = {
    store: s3.store,
    core: options.core,
    runtime: systemRuntime(),
    workRoot,
    memoryMb: 2048,
    browsers: options.browsers,
    ...(webhookSettings.webhooks ? { webhooks: webhookSettings.webhooks } : {}),
  };
  // One execution per name (lambda-runner's executionName), as Step Functions keeps them.
  const executions = new Map<string, { stop: AbortController; ended: Promise<unknown> }>();
  const notices: Array<Promise<unknown>> = [];
  const api: LambdaApiOptions = {
    store: s3.store,
    chunking: { chunkCount: 2 },
    chunkTimeoutSeconds: 900,
    webhooks: webhookSettings.gate,
    pricing: pricingForRegion('us-east-1'),
    defaultProjectDir: options.compositionDir,
    ...(shared.token ? { token: shared.token } : {}),
    ...(shared.limits?.maxFrames ? { limits: { maxFrames: shared.limits.maxFrames } } : {}),
    async startWorkflow(renderId, name) {
      if (executions.has(name)) return;
      const stop = new AbortController();
      const ended = runLocalPipeline(
        {
          plan: (event) => planHandler(deps, event),
          renderChunk: (event, signal) => renderChunkHandler(deps, event, { signal }),
          assemble: (event) => assembleHandler(deps, event),
          fail: (event) => failHandler(deps, event),
        },
        { renderId, maxConcurrency: 2, timeouts: { plan: 300_000, renderChunk: 900_000, assemble: 900_000 }, stop: stop.signal },
      ).catch(() => undefined); // the render's own records say how it ended
      executions.set(name, { stop, ended });
    },
    async stopWorkflow(_renderId, name) {
      executions.get(name)?.stop.abort(new Error('StopExecution: DELETE /api/render/:id'));
    },
    // The fail function invoked without waiting, as lambda-entry.ts does.
    ...(webhookSettings.webhooks
      ? {
          async notifyCancelled(renderId: string) {
            notices.push(failHandler(deps, { renderId, cancelled: true }).catch(() => undefined));
          },
        }
      : {}),
  };
  const work = pendingWork();
  const app = createLambdaApiApp({ ...api, compositionDir: options.compositionDir, waitUntil: work.waitUntil });
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await work.settle();
      // The renders still running end as a stopped execution does; the bucket goes after them.
      for (const execution of executions.values()) execution.stop.abort(new Error('the contract target stopped'));
      const steps = Promise.all([...[...executions.values()].map((execution) => execution.ended), ...notices]);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STEPS_LET_GO_MS)));
      const outcome = await Promise.race([steps, late]);
      clearTimeout(timer);
      await s3.close();
      await rm(workRoot, { recursive: true, force: true });
      if (outcome === 'late') throw new Error(`the stopped renders' steps did not let go within ${STEPS_LET_GO_MS / 1000} s`);
    },
  };
}
