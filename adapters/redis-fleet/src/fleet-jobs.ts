import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { chunkName, isRenderId } from '@seekframe/producer/distributed';
import { z } from 'zod';

/**
 * The jobs a fleet render becomes, as one BullMQ flow: a parent `assemble` job whose children
 * are the `chunk` jobs (BullMQ runs the parent once every child completed). Job data carries
 * keys into the fleet's store, never a file, a URL or a store location. Ids are derived from the
 * render id, so a job added twice is one job and a render's jobs can be found without a list.
 */
export const CHUNK_JOB = 'chunk';
export const ASSEMBLE_JOB = 'assemble';

const RenderId = z.string().refine(isRenderId, 'must be a render id (8-64 lower-case letters, digits and "-")');
const PlanHash = z.string().regex(/^[0-9a-f]{64}$/, 'must be the plan hash (64 hex digits)');

export const ChunkJobDataSchema = z.strictObject({
  renderId: RenderId,
  planHash: PlanHash,
  chunk: z.number().int().min(0).max(99_999),
});
export type ChunkJobData = z.output<typeof ChunkJobDataSchema>;

export const AssembleJobDataSchema = z.strictObject({
  renderId: RenderId,
  planHash: PlanHash,
  chunks: z.number().int().min(1).max(100_000),
});
export type AssembleJobData = z.output<typeof AssembleJobDataSchema>;

/** What a chunk job reports with job.updateProgress (QueueEvents carries it to the submitter). */
export interface ChunkProgress {
  chunk: number;
  framesRendered: number;
  frames: number;
  /** Which worker renders it: `<host>:<pid>:<random>` (logs, and the test that kills one). */
  worker: string;
}

export const assembleJobId = (renderId: string): string => `${renderId}-assemble`;
export const chunkJobId = (renderId: string, chunk: number): string => `${renderId}-c${chunkName(chunk)}`;

/** The error a job fails with: its message is the SeekframeError as JSON, so the code crosses the queue. */
export function jobError(error: SeekframeErrorData): Error {
  return new Error(JSON.stringify(error));
}

/** A job's failedReason back as a SeekframeError (ours are JSON; anything else is wrapped). */
export function errorFromFailedReason(reason: string | undefined, what: string): SeekframeError {
  try {
    const parsed = JSON.parse(reason ?? '') as Partial<SeekframeErrorData>;
    if (parsed && typeof parsed.code === 'string' && typeof parsed.message === 'string')
      return SeekframeError.fromJSON(parsed as SeekframeErrorData);
  } catch {
    // not ours
  }
  return new SeekframeError('render-failed', `${what} failed: ${reason ?? 'no reason given'}`, { stage: 'capture' });
}

/** A job's data checked against its schema; a malformed job fails with invalid-job naming the problems. */
export function parseJobData<T>(schema: z.ZodType<T>, name: string, id: string | undefined, data: unknown): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'data'} ${issue.message}`);
  throw new SeekframeError(
    'invalid-job',
    `Job ${id ?? '?'} (${name}) in the queue is not a Seekframe job: ${problems.join('; ')}. Only Seekframe adds jobs to this queue; give other applications their own queue (--queue-name).`,
    { stage: 'config', details: { job: id ?? null, name, problems } },
  );
}
