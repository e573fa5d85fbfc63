import { lambdaError } from '../errors.js';

/** An inline Map state runs at most 40 iterations at once (AWS limit); more need Distributed mode. */
export const MAP_MAX_CONCURRENCY = 40;
/** New AWS accounts often get 10 concurrent Lambda executions; raise it with `accountConcurrency`. */
export const DEFAULT_ACCOUNT_CONCURRENCY = 10;

export interface FrameChunk {
  index: number;
  /** First frame (inclusive). */
  start: number;
  /** End frame (exclusive). */
  end: number;
}

export interface ChunkPlanInput {
  totalFrames: number;
  fps: { num: number; den: number };
  format: string;
  /** The Map's concurrency cap (at most 40). */
  maxConcurrency?: number;
  /** The account's (or the function's reserved) Lambda concurrency. */
  accountConcurrency?: number;
  /** Shortest automatic chunk in seconds (default 1): shorter ones spend more on start-up than on frames. */
  minSecondsPerChunk?: number;
  /** Ask for this many chunks (still capped by the concurrency limits and the frame count). */
  chunkCount?: number;
  /** Ask for about this many frames per chunk (evened out over the chunks). */
  framesPerChunk?: number;
}

export interface ChunkPlan {
  chunks: FrameChunk[];
  /** Map concurrency to run them with: never above the caps, never above the chunk count. */
  concurrency: number;
}

/**
 * Splits `[0, totalFrames)` into contiguous half-open ranges whose sizes differ by at most one
 * frame. Pure: the plan handler, the local runner, the benchmark and the tests share it.
 * This is not the engine's in-render worker scheduler; it decides how many Lambda invocations
 * one render becomes.
 */
export function planChunks(input: ChunkPlanInput): ChunkPlan {
  const { totalFrames } = input;
  if (!Number.isInteger(totalFrames) || totalFrames < 1) {
    throw lambdaError('invalid-body', `A distributed render needs at least one frame; the plan has ${totalFrames}.`, { stage: 'config' });
  }
  if (input.format !== 'mp4') {
    throw lambdaError(
      'format-not-distributable',
      `Format "${input.format}" cannot be split into chunks on Lambda: only mp4 segments join without re-encoding ` +
        '(a GIF palette, ProRes and VP9-with-alpha need the whole video). Render it locally with `seekframe render`, or ask for mp4.',
      { stage: 'config', details: { format: input.format } },
    );
  }
  const cap = Math.max(
    1,
    Math.min(
      MAP_MAX_CONCURRENCY,
      positive(input.maxConcurrency, MAP_MAX_CONCURRENCY),
      positive(input.accountConcurrency, DEFAULT_ACCOUNT_CONCURRENCY),
    ),
  );
  let count: number;
  if (input.chunkCount !== undefined) {
    count = positive(input.chunkCount, 1);
  } else if (input.framesPerChunk !== undefined) {
    count = Math.ceil(totalFrames / positive(input.framesPerChunk, totalFrames));
  } else {
    const fps = input.fps.num / input.fps.den;
    const minFrames = Math.max(1, Math.ceil(fps * (input.minSecondsPerChunk ?? 1)));
    count = Math.floor(totalFrames / minFrames);
  }
  count = Math.max(1, Math.min(count, cap, totalFrames));
  const base = Math.floor(totalFrames / count);
  const extra = totalFrames % count;
  const chunks: FrameChunk[] = [];
  let start = 0;
  for (let index = 0; index < count; index++) {
    const size = base + (index < extra ? 1 : 0);
    chunks.push({ index, start, end: start + size });
    start += size;
  }
  return { chunks, concurrency: count };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
