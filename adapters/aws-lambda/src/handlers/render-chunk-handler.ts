import { chunkName, chunkStep, distributedError, putJson, renderKeys } from '@seekframe/producer/distributed';
import { renderProgressData, sendRenderEvent } from '../webhooks/render-webhook-events.js';
import type { ChunkProgress } from '../progress/progress-records.js';
import type { ChunkOutput, HandlerDeps } from './handler-deps.js';
import { runStep } from './run-step.js';

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

/** What a chunk's errors tell the user to do on Lambda. */
const LAMBDA_FIXES = {
  beginFrame: 'Deploy the functions from the render image (infra/lambda/build-image.sh), whose chromium-headless-shell answers beginFrame.',
  versions: 'Deploy plan and renderChunk from the same image (sst deploy updates both) and start the render again.',
};

/**
 * The core's chunk step on Lambda: the invocation's remaining time becomes a chunk-timeout 5 s
 * before the end, progress goes to `progress/NNNNN.json` objects (the API and the cost estimate
 * read them), and the render.progress webhook goes out once the segment is stored.
 */
export function renderChunkHandler(deps: HandlerDeps, event: RenderChunkEvent, options: ChunkRunOptions = {}): Promise<ChunkOutput> {
  const attempt = Number(event.attempt ?? 0);
  const index = Number(event.chunk);
  return runStep(deps, { renderId: event.renderId, step: chunkName(index), attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const record = (framesRendered: number, frames: number, done: boolean): ChunkProgress => ({
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
    let writes: Promise<unknown> = Promise.resolve();
    const onProgress = ({ framesRendered, frames }: { framesRendered: number; frames: number }): void => {
      writes = writes
        .then(() => putJson(deps.store, keys.chunkProgress(index), record(framesRendered, frames, false)))
        .catch(() => undefined);
    };

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
    let frames: number;
    try {
      ({ frames } = await chunkStep(
        deps,
        { renderId: event.renderId, planHash: event.planHash, chunk: index },
        { signal: controller.signal, onProgress, fixes: LAMBDA_FIXES, attempt },
      ));
    } catch (error) {
      if (timedOut || controller.signal.aborted) {
        throw distributedError('chunk-timeout', `Chunk ${index} ran out of time. Use more chunks or give renderChunk more memory.`, {
          stage: 'capture',
          retryable: true,
          details: { chunk: index },
          cause: error,
        });
      }
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
    await writes;
    await putJson(deps.store, keys.chunkProgress(index), record(frames, frames, true));
    // render.progress (at most one per interval across all chunks; one attempt, bounded by its timeout).
    await sendRenderEvent(deps, event.renderId, 'render.progress', () => renderProgressData(deps.store, event.renderId));
    return { renderId: event.renderId, chunk: index, frames, durationMs: now() - started };
  });
}
