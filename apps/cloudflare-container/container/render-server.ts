import { Hono } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { errorHandler, requestId } from '@seekframe/producer/http';
import type { RenderLimits } from '@seekframe/producer';
import { createJobSlots } from './job-slots.js';
import { jobRoutes } from './routes/job-routes.js';

export { effectiveLimits } from './run-container-job.js';

/**
 * The HTTP server inside the render container (and, in local mode, a plain Node process on the
 * host). One Worker-side job drives one render through it: the job routes (routes/job-routes.ts:
 * reserve, render as NDJSON events, output, status, release) and `GET /health`.
 *
 * On Cloudflare each job gets its own container instance, so one slot is enough there; on a
 * laptop one process stands in for every instance and `maxConcurrent` plays `max_instances`.
 */
export interface RenderServerOptions {
  /** The composition baked into the image (a folder with index.html). */
  compositionDir: string;
  /** Where renders and custom-HTML projects are written. */
  workDir: string;
  /** Render slots (max_instances of the local stand-in). */
  maxConcurrent: number;
  limits: RenderLimits;
  /** `auto` on Cloudflare (standard-4 has 4 vCPU); tests pass 1. */
  workers: 'auto' | number;
  /** A reserved slot whose render never starts is freed after this long. */
  reservationTtlMs?: number;
}

export function createRenderServerApp(options: RenderServerOptions): { app: Hono; close(): Promise<void> } {
  const slots = createJobSlots({ maxConcurrent: options.maxConcurrent, reservationTtlMs: options.reservationTtlMs ?? 60_000 });
  const { compositionDir, workDir, limits, workers } = options;
  const app = new Hono();
  app.onError(errorHandler({ retryAfterSeconds: 5 }));
  app.use(requestId());
  app.get('/health', (c) => c.json({ status: 'ok', activeJobs: slots.size, maxConcurrent: slots.maxConcurrent }));
  app.route('/', jobRoutes(slots, { compositionDir, workDir, limits, workers }));
  app.notFound((c) => {
    throw new SeekframeError('not-found', `No route ${c.req.method} ${c.req.path} on the render container.`);
  });
  return {
    app,
    async close() {
      await Promise.all(slots.all().map((job) => slots.release(job)));
    },
  };
}
