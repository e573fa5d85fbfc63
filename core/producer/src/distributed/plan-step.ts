import { rm } from 'node:fs/promises';
import path from 'node:path';
import { putFile } from '../storage/storage-files.js';
import type { DistributedDeps, StoredPlan } from './distributed-deps.js';
import { distributedError } from './distributed-error.js';
import { getJson, putJson } from './distributed-store.js';
import { planChunks, type ChunkPlanInput } from './plan-chunks.js';
import { renderKeys } from './render-keys.js';

export interface PlanStepInput {
  renderId: string;
  /** The project folder to plan from (extracted from the store on Lambda; the user's folder on a fleet's submitter). */
  projectDir: string;
  /** The render spec input (distributedSpecInput), checked by the core's parseRenderSpec. */
  spec: Record<string, unknown>;
  /** Where the spec came from, for its error messages. */
  source: string;
  /** How to split the frames (the planner's options besides the plan's own facts). */
  chunking?: Omit<ChunkPlanInput, 'totalFrames' | 'fps' | 'format'>;
  /** A folder for this step's scratch files (removed at the end). */
  workDir: string;
}

/**
 * Plans a distributed render once: lint, variables, timing and media through the core's
 * planRender, the chunk ranges, `plan.json` written with If-None-Match (so a retried or
 * duplicated plan step keeps the first plan and its hash), and the soundtrack mixed once to
 * exactly frames / fps as `audio.m4a`. Returns the stored plan that won.
 */
export async function planStep(deps: DistributedDeps, input: PlanStepInput): Promise<{ stored: StoredPlan; created: boolean }> {
  const now = deps.now ?? Date.now;
  const keys = renderKeys(input.renderId);
  const existing = await getJson<StoredPlan>(deps.store, keys.plan);
  const context = await coreContext(deps, input);
  try {
    if (existing) {
      // A retry after the winner wrote plan.json but died before its audio was stored.
      await ensureAudio(deps, input.renderId, existing, context, path.join(input.workDir, 'audio.m4a'));
      return { stored: existing, created: false };
    }
    const spec = deps.core.parseRenderSpec(input.spec, input.source);
    const plan = await deps.core.planRender(spec, context);
    const split = planChunks({ totalFrames: plan.totalFrames, fps: plan.fps, format: plan.format, ...input.chunking });
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
    await ensureAudio(deps, input.renderId, winner, context, path.join(input.workDir, 'audio.m4a'));
    return { stored: winner, created };
  } finally {
    await rm(input.workDir, { recursive: true, force: true });
  }
}

type PlanContext = Awaited<ReturnType<typeof coreContext>>;

async function coreContext(deps: DistributedDeps, input: PlanStepInput) {
  const ffmpeg = await deps.runtime.ffmpeg();
  return {
    projectDir: input.projectDir,
    browser: await deps.runtime.browser(),
    ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe },
    network: 'sandboxed' as const,
    workDir: path.join(input.workDir, 'plan-work'),
    ...(deps.runtimeSource ? { runtimeSource: deps.runtimeSource } : {}),
  };
}

/** Mixes and stores `audio.m4a` for a stored plan that has sound, unless it is already there. */
async function ensureAudio(
  deps: DistributedDeps,
  renderId: string,
  stored: StoredPlan,
  context: PlanContext,
  output: string,
): Promise<void> {
  const key = renderKeys(renderId).audio;
  if (!stored.audio || (await deps.store.head(key))) return;
  const file = await deps.core.mixPlanAudio(stored.plan, output, context);
  if (!file)
    throw distributedError('segment-missing', `The plan of render ${renderId} has sound, but mixing it gave no audio file.`, {
      stage: 'media',
    });
  await putFile(deps.store, key, file, { contentType: 'audio/mp4' });
  await rm(file, { force: true });
}
