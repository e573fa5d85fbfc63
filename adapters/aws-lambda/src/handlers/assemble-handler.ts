import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { lambdaError } from '../errors.js';
import { chunkName, renderKeys } from '../storage/layout.js';
import { getFile, putFile } from '@seekframe/producer';
import { getJson, putJson } from '../storage/lambda-store.js';
import { completedData, sendRenderEvent } from '../webhooks/render-webhook-events.js';
import type { AssembleProgress, FinalStatus } from '../progress/progress-records.js';
import type { AssembleOutput, HandlerDeps, StoredPlan } from './handler-deps.js';
import { runStep } from './run-step.js';

export interface AssembleEvent {
  renderId: string;
  planHash: string;
  attempt?: number;
}

/**
 * Joins the segments without re-encoding and muxes the once-mixed audio (the core's
 * assembleSegments: concat, +faststart, frame count checked), then uploads the output
 * (multipart) and writes status.json. A second run after success answers from status.json.
 */
export function assembleHandler(deps: HandlerDeps, event: AssembleEvent): Promise<AssembleOutput> {
  const attempt = Number(event.attempt ?? 0);
  return runStep(deps, { renderId: event.renderId, step: 'assemble', attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const status = await getJson<FinalStatus>(deps.store, keys.status);
    if (status?.status === 'completed' && status.output) return { renderId: event.renderId, output: status.output };
    const stored = await getJson<StoredPlan>(deps.store, keys.plan);
    if (!stored || stored.plan.hash !== event.planHash) {
      throw lambdaError(
        'plan-hash-mismatch',
        `Assembly was started for plan ${event.planHash}, but renders/${event.renderId}/plan.json holds ${stored ? `plan ${stored.plan.hash}` : 'nothing'}. Start the render again.`,
        { stage: 'output' },
      );
    }
    const progress = (done: boolean): AssembleProgress => ({
      step: 'assemble',
      done,
      startedAt: new Date(started).toISOString(),
      updatedAt: new Date(now()).toISOString(),
      memoryMb: deps.memoryMb,
      durationMs: now() - started,
    });
    await putJson(deps.store, keys.assembleProgress, progress(false));

    const root = path.join(deps.workRoot, `render-${event.renderId}`, 'assemble');
    await rm(root, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    try {
      const pieces: string[] = [];
      for (const chunk of stored.chunks) {
        const file = path.join(root, `${chunkName(chunk.index)}.mp4`);
        if (!(await getFile(deps.store, keys.chunk(chunk.index), file))) {
          throw lambdaError(
            'segment-missing',
            `Segment ${keys.chunk(chunk.index)} (frames ${chunk.start}-${chunk.end - 1}) is missing, so the video cannot be joined. Start the render again.`,
            {
              stage: 'output',
              details: { chunk: chunk.index },
            },
          );
        }
        pieces.push(file);
      }
      let audio: string | null = null;
      if (stored.audio) {
        audio = path.join(root, 'audio.m4a');
        if (!(await getFile(deps.store, keys.audio, audio)))
          throw lambdaError('segment-missing', `${keys.audio} is missing, so the audio cannot be muxed. Start the render again.`, {
            stage: 'output',
          });
      }
      const ffmpeg = await deps.runtime.ffmpeg();
      const out = path.join(root, 'out.mp4');
      const result = await deps.core.assembleSegments(stored.plan, pieces, audio, out, {
        ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe },
        workDir: path.join(root, 'work'),
      });
      if (result.frames !== stored.plan.totalFrames) {
        throw lambdaError('segment-missing', `The joined video has ${result.frames} frames, the plan ${stored.plan.totalFrames}.`, {
          stage: 'output',
          retryable: true,
        });
      }
      const { size } = await putFile(deps.store, keys.output, result.output, { contentType: 'video/mp4' });
      const output = { key: keys.output, size, frames: result.frames };
      const final: FinalStatus = { status: 'completed', finishedAt: new Date(now()).toISOString(), output };
      await putJson(deps.store, keys.assembleProgress, progress(true));
      await putJson(deps.store, keys.status, final);
      // The render is recorded as completed first; the webhook cannot change that.
      await sendRenderEvent(deps, event.renderId, 'render.completed', () => completedData(deps, event.renderId, output, final.finishedAt));
      return { renderId: event.renderId, output };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
}
