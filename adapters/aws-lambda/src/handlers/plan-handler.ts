import path from 'node:path';
import {
  distributedError,
  distributedSpecInput,
  getJson,
  planStep,
  putJson,
  renderKeys,
  renderWorkFolder,
  type StoredPlan,
} from '@seekframe/producer/distributed';
import { lambdaChunking } from '../chunks/plan-lambda-chunks.js';
import type { PlanProgress, StoredRequest } from '../progress/progress-records.js';
import type { HandlerDeps, PlanOutput } from './handler-deps.js';
import { runStep } from './run-step.js';
import { sendRenderEvent } from '../webhooks/render-webhook-events.js';

export interface PlanEvent {
  renderId: string;
  attempt?: number;
}

/**
 * Plans a render once through the core's plan step (lint, variables, timing, media, the audio
 * mixed once, the chunk ranges under Lambda's caps, `plan.json` written create-only so a retried
 * or duplicated plan step keeps the first plan and its hash), then records its progress object.
 */
export async function planHandler(deps: HandlerDeps, event: PlanEvent): Promise<PlanOutput> {
  // render.started goes out while the plan is made (it never delays or fails the plan); the
  // invocation waits for it only at its end, since a returned Lambda is frozen.
  const started = sendRenderEvent(deps, event.renderId, 'render.started', () => ({}));
  try {
    return await plan(deps, event);
  } finally {
    await started;
  }
}

function plan(deps: HandlerDeps, event: PlanEvent): Promise<PlanOutput> {
  const attempt = Number(event.attempt ?? 0);
  return runStep(deps, { renderId: event.renderId, step: 'plan', attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const request = await getJson<StoredRequest>(deps.store, keys.request);
    if (!request)
      throw distributedError(
        'render-not-found',
        `renders/${event.renderId}/request.json does not exist: start renders through POST /api/render or renderOnLambda.`,
        { stage: 'config' },
      );
    const { root, projectDir } = await renderWorkFolder(deps, event.renderId);
    const { stored, created } = await planStep(deps, {
      renderId: event.renderId,
      projectDir,
      spec: distributedSpecInput(request.request, projectDir, request.limits),
      source: `renders/${event.renderId}/request.json`,
      chunking: lambdaChunking(request.chunking),
      workDir: path.join(root, 'plan'),
    });
    if (created) {
      const progress: PlanProgress = {
        step: 'plan',
        done: true,
        planHash: stored.plan.hash,
        totalFrames: stored.plan.totalFrames,
        chunks: stored.chunks.length,
        concurrency: stored.concurrency,
        finishedAt: new Date(now()).toISOString(),
        memoryMb: deps.memoryMb,
        durationMs: now() - started,
      };
      await putJson(deps.store, keys.planProgress, progress);
    }
    return planOutput(event.renderId, stored);
  });
}

function planOutput(renderId: string, stored: StoredPlan): PlanOutput {
  return { renderId, planHash: stored.plan.hash, chunkCount: stored.chunks.length, chunks: stored.chunks.map((c) => ({ index: c.index })) };
}
