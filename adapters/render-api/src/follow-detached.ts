import { isFinished, type RenderJob } from './render-job.js';

export interface FollowDetachedDeps {
  /** The job service's status read: refreshes the record from the runner (and so tells the webhook). */
  get: (id: string) => Promise<RenderJob>;
  now: () => Date;
  /** Between two reads. */
  everyMs: number;
  /** The render's time limit: past it and a minute of grace, it could no longer be running. */
  maxRenderSeconds: number;
}

/**
 * A detached render (the Vercel sandbox) is otherwise learnt of only when a client asks for its
 * status; a webhook exists so that nobody has to ask. So the service asks the runner itself, while
 * this instance may run (`waitUntil` / Next's `after()`: up to the function's maxDuration; a longer
 * render is followed on from the next status request), until the job ends or could no longer be
 * running.
 */
export async function followDetached(job: RenderJob, deps: FollowDetachedDeps): Promise<void> {
  const giveUpAt = Date.parse(job.createdAt) + deps.maxRenderSeconds * 1000 + 60_000;
  while (deps.now().getTime() < giveUpAt) {
    const current = await deps.get(job.id).catch(() => null);
    if (!current || isFinished(current.status)) return;
    await new Promise((resolve) => setTimeout(resolve, deps.everyMs));
  }
}
