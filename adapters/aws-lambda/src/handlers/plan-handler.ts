import { rm } from 'node:fs/promises';
import path from 'node:path';
import { planChunks } from '../chunks/plan-chunks.js';
import { lambdaError } from '../errors.js';
import { renderKeys } from '../storage/layout.js';
import { putFile } from '@seekframe/producer';
import { getJson, putJson } from '../storage/lambda-store.js';
import type { PlanProgress, StoredRequest } from '../progress/progress-records.js';
import type { HandlerDeps, PlanOutput, StoredPlan } from './handler-deps.js';
import { runStep } from './run-step.js';
import { sendRenderEvent } from '../webhooks/render-webhook-events.js';
import { specInput } from './spec-input.js';
import { renderWorkFolder } from './work-folder.js';

export interface PlanEvent {
  renderId: string;
  attempt?: number;
}

/**
 * Plans a render once: lint, variables, timing and media through the core's planRender, the
 * audio mixed once to exactly frames/fps, the chunk ranges, and `plan.json` written with
 * If-None-Match so a retried or duplicated plan step keeps the first plan (and its hash).
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
    const existing = await getJson<StoredPlan>(deps.store, keys.plan);
    if (existing) {
      // A retry after the winner wrote plan.json but died before its audio was stored.
      await ensureAudio(deps, event.renderId, existing);
      return planOutput(event.renderId, existing);
    }
    const request = await getJson<StoredRequest>(deps.store, keys.request);
    if (!request)
      throw lambdaError(
        'render-not-found',
        `renders/${event.renderId}/request.json does not exist: start renders through POST /api/render or renderOnLambda.`,
        { stage: 'config' },
      );

    const context = await coreContext(deps, event.renderId);
    const spec = deps.core.parseRenderSpec(specInput(request, context.projectDir), `renders/${event.renderId}/request.json`);
    const plan = await deps.core.planRender(spec, context);
    const split = planChunks({ totalFrames: plan.totalFrames, fps: plan.fps, format: plan.format, ...request.chunking });
    const hasAudio = Boolean((plan as { media?: { audio?: unknown } }).media?.audio);

    const stored: StoredPlan = {
      plan: plan as StoredPlan['plan'],
      chunks: split.chunks,
      concurrency: split.concurrency,
      audio: hasAudio,
      createdAt: new Date(now()).toISOString(),
    };
    // If-None-Match: when another attempt wrote first, its plan (and hash) is the one chunks check.
    const { created } = await putJson(deps.store, keys.plan, stored, { ifNoneMatch: '*' });
    const winner = created ? stored : ((await getJson<StoredPlan>(deps.store, keys.plan)) ?? stored);
    // The soundtrack of the winning plan, mixed once (exactly totalFrames / fps long).
    await ensureAudio(deps, event.renderId, winner, context);
    await rm(context.workDir, { recursive: true, force: true });
    const progress: PlanProgress = {
      step: 'plan',
      done: true,
      planHash: winner.plan.hash,
      totalFrames: winner.plan.totalFrames,
      chunks: winner.chunks.length,
      concurrency: winner.concurrency,
      finishedAt: new Date(now()).toISOString(),
      memoryMb: deps.memoryMb,
      durationMs: now() - started,
    };
    await putJson(deps.store, keys.planProgress, progress);
    return planOutput(event.renderId, winner);
  });
}

type PlanContext = Awaited<ReturnType<typeof coreContext>>;

async function coreContext(deps: HandlerDeps, renderId: string) {
  const { root, projectDir } = await renderWorkFolder(deps, renderId);
  const browser = await deps.runtime.browser();
  const ffmpegInfo = await deps.runtime.ffmpeg();
  return {
    root,
    projectDir,
    browser,
    ffmpegInfo,
    ffmpeg: { ffmpeg: ffmpegInfo.ffmpeg, ffprobe: ffmpegInfo.ffprobe },
    network: 'sandboxed' as const,
    workDir: path.join(root, 'plan-work'),
    ...(deps.runtimeSource ? { runtimeSource: deps.runtimeSource } : {}),
  };
}

/** Mixes and stores `audio.m4a` for a stored plan that has sound, unless it is already there. */
async function ensureAudio(deps: HandlerDeps, renderId: string, stored: StoredPlan, given?: PlanContext): Promise<void> {
  const key = renderKeys(renderId).audio;
  if (!stored.audio || (await deps.store.head(key))) return;
  const context = given ?? (await coreContext(deps, renderId));
  const file = await deps.core.mixPlanAudio(stored.plan, path.join(context.root, 'audio.m4a'), context);
  if (!file)
    throw lambdaError('segment-missing', `The plan of render ${renderId} has sound, but mixing it gave no audio file.`, { stage: 'media' });
  await putFile(deps.store, key, file, { contentType: 'audio/mp4' });
  await rm(file, { force: true });
}

function planOutput(renderId: string, stored: StoredPlan): PlanOutput {
  return { renderId, planHash: stored.plan.hash, chunkCount: stored.chunks.length, chunks: stored.chunks.map((c) => ({ index: c.index })) };
}
