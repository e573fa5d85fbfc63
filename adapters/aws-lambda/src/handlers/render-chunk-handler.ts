import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fontPackageVersions } from '@seekframe/engine';
import { lambdaError } from '../errors.js';
import { chunkName, renderKeys } from '../storage/layout.js';
import { putFile } from '@seekframe/producer';
import { getJson, putJson } from '../storage/lambda-store.js';
import { renderProgressData, sendRenderEvent } from '../webhooks/render-webhook-events.js';
import type { ChunkProgress } from '../progress/progress-records.js';
import { checkChunkRuntime } from './check-versions.js';
import type { ChunkOutput, HandlerDeps, StoredPlan } from './handler-deps.js';
import { runStep } from './run-step.js';
import { renderWorkFolder } from './work-folder.js';

export interface RenderChunkEvent {
  renderId: string;
  planHash: string;
  chunk: number;
  attempt?: number;
}

export interface ChunkRunOptions {
  /** Aborts the render (the local runner's timeout, or Lambda's remaining time). */
  signal?: AbortSignal;
  /** Milliseconds this invocation may still run; the chunk stops 5 s before with chunk-timeout. */
  remainingMs?: number;
}

/** Progress objects per chunk: about ten, never one per frame (many chunks x many frames). */
const PROGRESS_STEPS = 10;

/**
 * Renders frames [start, end) of the plan into a video-only segment that joins without
 * re-encoding, after checking the plan hash, the binaries and beginFrame. The segment key is
 * deterministic, so a retry overwrites the failed attempt's piece.
 */
export function renderChunkHandler(deps: HandlerDeps, event: RenderChunkEvent, options: ChunkRunOptions = {}): Promise<ChunkOutput> {
  const attempt = Number(event.attempt ?? 0);
  const index = Number(event.chunk);
  return runStep(deps, { renderId: event.renderId, step: chunkName(index), attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const stored = await getJson<StoredPlan>(deps.store, keys.plan);
    if (!stored)
      throw lambdaError(
        'plan-hash-mismatch',
        `renders/${event.renderId}/plan.json is missing: this chunk has no plan to render. Start the render again.`,
        { stage: 'config' },
      );
    if (stored.plan.hash !== event.planHash) {
      throw lambdaError(
        'plan-hash-mismatch',
        `Chunk ${index} was started for plan ${event.planHash}, but renders/${event.renderId}/plan.json holds plan ${stored.plan.hash}. Start the render again.`,
        {
          stage: 'config',
          details: { expected: event.planHash, found: stored.plan.hash },
        },
      );
    }
    const range = stored.chunks[index];
    if (!range)
      throw lambdaError('plan-hash-mismatch', `Chunk ${index} is not in the plan (it has ${stored.chunks.length} chunks).`, {
        stage: 'config',
      });

    const browser = await deps.runtime.browser();
    const ffmpeg = await deps.runtime.ffmpeg();
    checkChunkRuntime(stored.plan, browser, ffmpeg, await fontPackageVersions());
    const { root, projectDir } = await renderWorkFolder(deps, event.renderId);
    const segment = path.join(root, 'chunks', `${chunkName(index)}.mp4`);
    await mkdir(path.dirname(segment), { recursive: true });

    const frames = range.end - range.start;
    const every = Math.max(1, Math.ceil(frames / PROGRESS_STEPS));
    const record = (framesRendered: number, done: boolean): ChunkProgress => ({
      step: 'chunk',
      chunk: index,
      attempt,
      frames,
      framesRendered,
      done,
      startedAt: new Date(started).toISOString(),
      updatedAt: new Date(now()).toISOString(),
      memoryMb: deps.memoryMb,
      durationMs: now() - started,
    });
    // Writes go out one after another; a slow write never blocks capture and never reorders.
    // A failed progress write loses one progress update, never the chunk.
    let writes: Promise<unknown> = putJson(deps.store, keys.chunkProgress(index), record(0, false)).catch(() => undefined);
    let lastWritten = 0;
    // Set once the frames are rendered: a progress event that arrives later (emitted before, delivered
    // after) must not queue a done: false record behind the final one, which left a finished render
    // reporting a chunk as not done.
    let finished = false;
    const onEvent = (e: { type: string; framesRendered?: number }): void => {
      if (finished || e.type !== 'progress' || typeof e.framesRendered !== 'number') return;
      const done = Math.min(frames, e.framesRendered);
      if (done - lastWritten < every && done < frames) return;
      lastWritten = done;
      writes = writes.then(() => putJson(deps.store, keys.chunkProgress(index), record(done, false))).catch(() => undefined);
    };

    const workDir = path.join(root, `work-${chunkName(index)}-${attempt}`);
    const controller = new AbortController();
    const abort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abort, { once: true });
    let timedOut = false;
    const timer =
      options.remainingMs !== undefined
        ? setTimeout(
            () => {
              timedOut = true;
              controller.abort(new Error('chunk time is up'));
            },
            Math.max(1_000, options.remainingMs - 5_000),
          )
        : undefined;
    try {
      const result = await deps.core.renderFrames(
        stored.plan,
        { start: range.start, end: range.end },
        { kind: 'segment', path: segment },
        {
          projectDir,
          browser,
          ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe },
          network: 'sandboxed',
          workDir,
          signal: controller.signal,
          onEvent,
          ...(deps.runtimeSource ? { runtimeSource: deps.runtimeSource } : {}),
          ...(deps.browsers ? { browsers: deps.browsers } : {}),
        },
      );
      if (result.frames !== frames) {
        throw lambdaError(
          'segment-missing',
          `Chunk ${index} produced ${result.frames} frames instead of ${frames} (frames ${range.start}-${range.end - 1}).`,
          { stage: 'encode', retryable: true },
        );
      }
      await putFile(deps.store, keys.chunk(index), result.output, { contentType: 'video/mp4' });
      await rm(result.output, { force: true });
    } catch (error) {
      if (timedOut || controller.signal.aborted) {
        throw lambdaError(
          'chunk-timeout',
          `Chunk ${index} (frames ${range.start}-${range.end - 1}) ran out of time. Use more chunks or give renderChunk more memory.`,
          {
            stage: 'capture',
            retryable: true,
            details: { chunk: index, frames },
            cause: error,
          },
        );
      }
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      // Extracted video frames and downloads of this chunk: /tmp is shared with the next invocation.
      await rm(workDir, { recursive: true, force: true });
    }
    finished = true;
    await writes;
    await putJson(deps.store, keys.chunkProgress(index), record(frames, true));
    // render.progress (at most one per interval across all chunks; one attempt, bounded by its timeout).
    await sendRenderEvent(deps, event.renderId, 'render.progress', () => renderProgressData(deps.store, event.renderId));
    return { renderId: event.renderId, chunk: index, frames, durationMs: now() - started };
  });
}
