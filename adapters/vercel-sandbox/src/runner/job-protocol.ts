/**
 * What the function and the job script inside the sandbox (src/sandbox-scripts/run-job.ts) say
 * to each other: the spec file the script reads, and the last line (and result.json) it writes.
 */
export interface JobSpec {
  /** The job's folder (relative to the sandbox working folder); result.json and progress.json go here. */
  dir: string;
  cmd: string;
  args: string[];
  output: string;
  outputKey: string;
  contentType: string;
}

/** The last line of the job: what result.json holds and what the script prints at the end. */
export type JobResult =
  | { type: 'uploaded'; status: 'completed'; key: string; url: string; size: number; contentType: string; durationMs: number }
  | { type: 'failed'; status: 'failed'; error: { code: string; message: string; stage?: string; retryable: boolean } };
