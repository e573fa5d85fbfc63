import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import type { JobStore, ObjectStore, RenderRunner, RunnerEvent, RunnerJob } from './ports.js';
import type { JobUpdate, RenderJob } from './render-job.js';

/** Progress writes at most this often: a Blob or DO write per frame would cost more than the render. */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

export interface RunJobDeps {
  jobs: JobStore;
  objects: ObjectStore;
  runner: RenderRunner;
  now: () => number;
}

/**
 * Runs one job on the runner and keeps its record current: stage and progress from the runner's
 * events (throttled, written in order), then completed with its result or failed with its
 * error. A job cancelled meanwhile stays cancelled. Never rejects. Whoever listens (the webhook,
 * `onEvent`) hears these writes from the job store (job-lifecycle.ts), not from here.
 */
export async function runJob(deps: RunJobDeps, job: RenderJob, runnerJob: RunnerJob, signal: AbortSignal): Promise<void> {
  const { jobs, objects, runner } = deps;
  let writes: Promise<unknown> = jobs.update(job.id, { status: 'running' });
  const write = (update: JobUpdate): void => {
    writes = writes.then(() => jobs.update(job.id, update)).catch(() => undefined);
  };
  let lastProgressWrite = 0;
  let pendingProgress: JobUpdate | undefined;
  let failure: SeekframeErrorData | undefined;
  let renderMs: number | undefined;

  const emit = (event: RunnerEvent): void => {
    switch (event.type) {
      case 'stage':
        write({ stage: event.stage, ...(pendingProgress ?? {}) });
        pendingProgress = undefined;
        break;
      case 'progress': {
        const update: JobUpdate = {
          stage: event.stage,
          framesRendered: event.framesRendered,
          totalFrames: event.totalFrames,
          progress: Math.min(1, Math.max(0, event.percent / 100)),
        };
        if (deps.now() - lastProgressWrite >= PROGRESS_WRITE_INTERVAL_MS) {
          lastProgressWrite = deps.now();
          pendingProgress = undefined;
          write(update);
        } else {
          pendingProgress = update;
        }
        break;
      }
      case 'complete':
        renderMs = event.durationMs;
        break;
      case 'error':
        failure = event.error;
        break;
      case 'warning':
        break;
    }
  };

  let outcome: Awaited<ReturnType<RenderRunner['start']>> | undefined;
  try {
    outcome = await runner.start(runnerJob, { emit, signal });
  } catch (error) {
    failure =
      error instanceof SeekframeError
        ? error.toJSON()
        : {
            code: 'render-failed',
            message: `The render failed: ${error instanceof Error ? error.message : String(error)}`,
            retryable: true,
          };
  }
  await writes;
  if (outcome?.kind === 'detached' && !failure) return;

  const current = await jobs.get(job.id);
  if (!current || current.status === 'cancelled') return;
  if (signal.aborted) return;

  if (!failure) {
    const info = await objects.head(runnerJob.outputKey).catch(() => null);
    if (!info) {
      failure = {
        code: 'output-missing',
        message: `The runner finished but stored nothing at ${runnerJob.outputKey}; check the runner's logs.`,
        stage: 'output',
        retryable: true,
      };
    } else {
      const url = (await objects.url(runnerJob.outputKey)) ?? `/api/render/${encodeURIComponent(job.id)}`;
      const durationMs =
        renderMs ?? (outcome?.kind === 'stored' ? outcome.durationMs : undefined) ?? Math.max(0, deps.now() - Date.parse(job.createdAt));
      await jobs.update(job.id, {
        status: 'completed',
        stage: 'finish',
        progress: 1,
        ...(current.totalFrames !== null ? { framesRendered: current.totalFrames } : {}),
        result: { url, key: runnerJob.outputKey, durationMs, size: info.size, contentType: info.contentType ?? runnerJob.contentType },
      });
      return;
    }
  }
  await jobs.update(job.id, { status: 'failed', error: failure });
}
