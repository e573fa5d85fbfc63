import { planChunks, type ChunkPlan, type ChunkPlanInput } from '@seekframe/producer/distributed';

/** An inline Map state runs at most 40 iterations at once (AWS limit); more need Distributed mode. */
export const MAP_MAX_CONCURRENCY = 40;
/** New AWS accounts often get 10 concurrent Lambda executions; raise it with `accountConcurrency`. */
export const DEFAULT_ACCOUNT_CONCURRENCY = 10;

export interface LambdaChunkPlanInput extends Omit<ChunkPlanInput, 'maxChunks'> {
  /** The Map's concurrency cap (at most 40). */
  maxConcurrency?: number;
  /** The account's (or the function's reserved) Lambda concurrency. */
  accountConcurrency?: number;
}

/**
 * The core's chunk planner under Lambda's caps: at most 40 (the inline Map), the Map's
 * concurrency and the account's Lambda concurrency (default 10), so every chunk runs at once.
 */
export function planLambdaChunks(input: LambdaChunkPlanInput): ChunkPlan {
  const { totalFrames, fps, format, ...chunking } = input;
  return planChunks({ totalFrames, fps, format, ...lambdaChunking(chunking) });
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/**
 * A request's chunking settings as the core planner's options: Lambda's caps (the Map, the
 * account) become `maxChunks`, so every chunk of a render runs at once.
 */
export function lambdaChunking(chunking: {
  maxConcurrency?: number;
  accountConcurrency?: number;
  chunkCount?: number;
  framesPerChunk?: number;
}): Omit<ChunkPlanInput, 'totalFrames' | 'fps' | 'format'> {
  const { maxConcurrency, accountConcurrency, ...rest } = chunking;
  return { ...rest, maxChunks: lambdaChunkCap(maxConcurrency, accountConcurrency) };
}

function lambdaChunkCap(maxConcurrency: number | undefined, accountConcurrency: number | undefined): number {
  return Math.max(
    1,
    Math.min(MAP_MAX_CONCURRENCY, positive(maxConcurrency, MAP_MAX_CONCURRENCY), positive(accountConcurrency, DEFAULT_ACCOUNT_CONCURRENCY)),
  );
}
