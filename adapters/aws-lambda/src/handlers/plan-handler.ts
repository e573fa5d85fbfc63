import { rm } from 'node:fs/promises';
import path from 'node:path';
import { planChunks } from '../chunks/plan-chunks.js';
import { lambdaError } from '../errors.js';
import { renderKeys } from '../storage/layout.js';
import { getJson, putJson } from '../storage/object-store.js';
import { assertCanMixAudio } from '../runtime/ffmpeg-capabilities.js';
import type { PlanProgress, StoredRequest } from '../progress/progress-records.js';
import type { HandlerDeps, PlanOutput, StoredPlan } from './handler-deps.js';
import { runStep } from './run-step.js';
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
export function planHandler(deps: HandlerDeps, event: PlanEvent): Promise<PlanOutput> {
  const attempt = Number(event.attempt ?? 0);
  return runStep(deps, { renderId: event.renderId, step: 'plan', attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const existing = await getJson<StoredPlan>(deps.store, keys.plan);
    if (existing) return planOutput(event.renderId, existing);
    const request = await getJson<StoredRequest>(deps.store, keys.request);
    if (!request) throw lambdaError('render-not-found', `renders/${event.renderId}/request.json does not exist: start renders through POST /api/render or renderOnLambda.`, { stage: 'config' });

    const { root, projectDir } = await renderWorkFolder(deps, event.renderId);
    const browser = await deps.runtime.browser();
    const ffmpeg = await deps.runtime.ffmpeg();
    const context = { browser, ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe }, network: 'sandboxed' as const, workDir: path.join(root, 'plan-work'), projectDir, ...(deps.runtimeSource ? { runtimeSource: deps.runtimeSource } : {}) };
    const spec = deps.core.parseRenderSpec(specInput(request, projectDir), `renders/${event.renderId}/request.json`);
    const plan = await deps.core.planRender(spec, context);
    const split = planChunks({ totalFrames: plan.totalFrames, fps: plan.fps, format: plan.format, ...request.chunking });
    // Refuse before any chunk runs: a plan with sound needs an ffmpeg that can mix it.
    if ((plan as { media?: { audio?: unknown } }).media?.audio) await assertCanMixAudio(ffmpeg);
    const audioFile = await deps.core.mixPlanAudio(plan, path.join(root, 'audio.m4a'), context);
    if (audioFile) await deps.store.putFile(keys.audio, audioFile, 'audio/mp4');
    await rm(context.workDir, { recursive: true, force: true });

    const stored: StoredPlan = { plan: plan as StoredPlan['plan'], chunks: split.chunks, concurrency: split.concurrency, audio: audioFile !== null, createdAt: new Date(now()).toISOString() };
    const { created } = await putJson(deps.store, keys.plan, stored, { ifNoneMatch: '*' });
    // Another attempt wrote first: its plan is the one chunks will check against.
    const winner = created ? stored : ((await getJson<StoredPlan>(deps.store, keys.plan)) ?? stored);
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
    await putJson(deps.store, keys.planProgress, progress, { shortLived: true });
    return planOutput(event.renderId, winner);
  });
}

function planOutput(renderId: string, stored: StoredPlan): PlanOutput {
  return { renderId, planHash: stored.plan.hash, chunkCount: stored.chunks.length, chunks: stored.chunks.map((c) => ({ index: c.index })) };
}
