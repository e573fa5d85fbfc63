import { rm } from 'node:fs/promises';
import { SeekframeError } from '@seekframe/composition';

/** One render on this container: reserved, then running, then its output kept until released. */
export interface Job {
  id: string;
  reservedAt: number;
  abort: AbortController;
  running: boolean;
  output?: { file: string; size: number; contentType: string };
  projectDir?: string;
}

/**
 * The render slots of one container. On Cloudflare each job gets its own container instance, so
 * one slot is enough there; on a laptop one process stands in for every instance and
 * `maxConcurrent` plays `max_instances`.
 */
export interface JobSlots {
  readonly maxConcurrent: number;
  get(id: string): Job | undefined;
  /** The job's slot (the one it already has, or a free one); throws 429 `too-many-renders` when all are taken. */
  reserve(id: string): Job;
  /** Cancels the job's render, deletes its files and frees its slot. */
  release(job: Job): Promise<void>;
  /** Jobs holding a slot. */
  readonly size: number;
  all(): Job[];
}

export function createJobSlots(options: { maxConcurrent: number; reservationTtlMs: number }): JobSlots {
  const jobs = new Map<string, Job>();

  /** Frees reservations that were made but never used (the Worker side died between the calls). */
  function sweep(now: number): void {
    for (const job of jobs.values()) {
      if (!job.running && !job.output && now - job.reservedAt > options.reservationTtlMs) jobs.delete(job.id);
    }
  }

  return {
    maxConcurrent: options.maxConcurrent,
    get: (id) => jobs.get(id),
    reserve(id) {
      const existing = jobs.get(id);
      if (existing) return existing;
      sweep(Date.now());
      if (jobs.size >= options.maxConcurrent) {
        throw new SeekframeError(
          'too-many-renders',
          `All ${options.maxConcurrent} render slot(s) of this renderer are busy; try again shortly (raise max_instances in wrangler.jsonc for more at once).`,
          { retryable: true },
        );
      }
      const job: Job = { id, reservedAt: Date.now(), abort: new AbortController(), running: false };
      jobs.set(id, job);
      return job;
    },
    async release(job) {
      job.abort.abort();
      jobs.delete(job.id);
      if (job.output) await rm(job.output.file, { force: true });
      if (job.projectDir) await rm(job.projectDir, { recursive: true, force: true });
    },
    get size() {
      return jobs.size;
    },
    all: () => [...jobs.values()],
  };
}
