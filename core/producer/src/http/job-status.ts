/**
 * Where a render job is, the same five words on every face (the render API of each template, the
 * producer server's jobs, the Lambda API's progress): plain strings, so a job crosses processes
 * and platforms as JSON.
 */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export function isFinishedStatus(status: JobStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
