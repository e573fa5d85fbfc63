import { distributedError } from './distributed-error.js';

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
  /** Most chunks one render becomes (the fleet's or the platform's parallelism). Default: no cap. */
  maxChunks?: number;
  /** Shortest automatic chunk in seconds (default 1): shorter ones spend more on start-up than on frames. */
  minSecondsPerChunk?: number;
  /** Ask for this many chunks (still capped by `maxChunks` and the frame count). */
  chunkCount?: number;
  /** Ask for about this many frames per chunk (evened out over the chunks). */
  framesPerChunk?: number;
}

export interface ChunkPlan {
  chunks: FrameChunk[];
  /** Chunks to run at once: never above the cap, never above the chunk count. */
  concurrency: number;
}

/**
 * Splits `[0, totalFrames)` into contiguous half-open ranges whose sizes differ by at most one
 * frame. Pure: every distributed path (Lambda's plan step, the Redis fleet's submitter, the
 * benchmarks and the tests) shares it. This is not the engine's in-render worker scheduler; it
 * decides how many separately rendered segments one render becomes.
 */
export function planChunks(input: ChunkPlanInput): ChunkPlan {
  const { totalFrames } = input;
  if (!Number.isInteger(totalFrames) || totalFrames < 1) {
    throw distributedError('invalid-body', `A distributed render needs at least one frame; the plan has ${totalFrames}.`, {
      stage: 'config',
    });
  }
  if (input.format !== 'mp4') {
    throw distributedError(
      'format-not-distributable',
      `Format "${input.format}" cannot be split into chunks: only mp4 segments join without re-encoding ` +
        '(a GIF palette, ProRes and VP9-with-alpha need the whole video). Render it on one machine with `seekframe render`, or ask for mp4.',
      { stage: 'config', details: { format: input.format } },
    );
  }
  const cap = positive(input.maxChunks, Number.POSITIVE_INFINITY);
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
