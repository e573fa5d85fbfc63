import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { getFile, putFile } from '../storage/storage-files.js';
import { loadPlan } from './chunk-step.js';
import type { DistributedDeps } from './distributed-deps.js';
import { distributedError } from './distributed-error.js';
import { chunkName, renderKeys } from './render-keys.js';

export interface AssembleStepInput {
  renderId: string;
  planHash: string;
}

export interface AssembledOutput {
  key: string;
  size: number;
  frames: number;
  /** Where the assembly's time went, in ms: segments and audio fetched, joined (concat + mux), output stored. */
  timings?: { fetch: number; join: number; store: number };
}

/**
 * Joins a render's segments without re-encoding and muxes the once-mixed audio (the core's
 * assembleSegments: concat at the exact frame rate, +faststart, frame count checked), then
 * stores the output at `renders/<id>/out.mp4` (S3: multipart).
 */
export async function assembleStep(
  deps: DistributedDeps,
  input: AssembleStepInput,
  options: { signal?: AbortSignal } = {},
): Promise<AssembledOutput> {
  const keys = renderKeys(input.renderId);
  const clock = deps.now ?? Date.now;
  const begun = clock();
  const stored = await loadPlan(deps, input.renderId, input.planHash, 'Assembly');
  const root = path.join(deps.workRoot, `render-${input.renderId}`, 'assemble');
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  try {
    const pieces: string[] = [];
    for (const chunk of stored.chunks) {
      options.signal?.throwIfAborted();
      const file = path.join(root, `${chunkName(chunk.index)}.mp4`);
      if (!(await getFile(deps.store, keys.chunk(chunk.index), file))) {
        throw distributedError(
          'segment-missing',
          `Segment ${keys.chunk(chunk.index)} (frames ${chunk.start}-${chunk.end - 1}) is missing, so the video cannot be joined. Start the render again.`,
          { stage: 'output', details: { chunk: chunk.index } },
        );
      }
      pieces.push(file);
    }
    let audio: string | null = null;
    if (stored.audio) {
      audio = path.join(root, 'audio.m4a');
      if (!(await getFile(deps.store, keys.audio, audio)))
        throw distributedError('segment-missing', `${keys.audio} is missing, so the audio cannot be muxed. Start the render again.`, {
          stage: 'output',
        });
    }
    const fetched = clock();
    const ffmpeg = await deps.runtime.ffmpeg();
    const out = path.join(root, 'out.mp4');
    const result = await deps.core.assembleSegments(stored.plan, pieces, audio, out, {
      ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe },
      workDir: path.join(root, 'work'),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (result.frames !== stored.plan.totalFrames) {
      throw distributedError('segment-missing', `The joined video has ${result.frames} frames, the plan ${stored.plan.totalFrames}.`, {
        stage: 'output',
        retryable: true,
      });
    }
    const joined = clock();
    const { size } = await putFile(deps.store, keys.output, result.output, { contentType: 'video/mp4' });
    return {
      key: keys.output,
      size,
      frames: result.frames,
      timings: { fetch: fetched - begun, join: joined - fetched, store: clock() - joined },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
