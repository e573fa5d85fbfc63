import type { JobStore } from './ports.js';
import { isFinished } from './render-job.js';

/**
 * The client of a synchronous answer never learnt the job's id, so when it goes away nobody could
 * cancel the render: it is cancelled here, its slot freed, as the producer server does.
 * `signal` is the request's (`request.signal` aborts when the client disconnects: @hono/node-server;
 * Workers with the `enable_request_signal` flag; Next route handlers). Returns the function that
 * stops watching.
 */
export function cancelOnDisconnect(
  signal: AbortSignal,
  id: string,
  deps: { jobs: Pick<JobStore, 'get'>; stop: (id: string, message: string) => Promise<unknown> },
): () => void {
  const onAbort = (): void => {
    void (async () => {
      const job = await deps.jobs.get(id);
      if (job && !isFinished(job.status))
        await deps.stop(id, `Render ${id} was cancelled: the client of the synchronous POST /api/render disconnected before it finished.`);
    })().catch(() => undefined);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
