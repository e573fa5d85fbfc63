import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { errorHandler, requestId } from '@seekframe/producer/http';
import { renderComposition, renderStills, type RenderEvent, type RenderLimits } from '@seekframe/producer';
import { ContainerRenderBodySchema, OUTPUT_CONTENT_TYPES, type ContainerEvent } from '@seekframe/cloudflare-container/protocol';

/**
 * The HTTP server inside the render container (and, in local mode, a plain Node process on the
 * host). One Worker-side job drives one render through it:
 *
 *   PUT    /jobs/:id          reserve a render slot (429 too-many-renders when all are taken)
 *   POST   /jobs/:id/render   run the render; answers NDJSON events, the last one `complete` or `error`
 *   GET    /jobs/:id/output   the finished file with Content-Length (R2 refuses a body of unknown length)
 *   GET    /jobs/:id          {id, running, output}
 *   DELETE /jobs/:id          cancel a running render, delete its file, free the slot
 *   GET    /health
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

interface Job {
  id: string;
  reservedAt: number;
  abort: AbortController;
  running: boolean;
  output?: { file: string; size: number; contentType: string };
  projectDir?: string;
}

const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Progress lines are throttled: the Worker side stores at most one state per second anyway. */
const PROGRESS_INTERVAL_MS = 250;

export function createRenderServerApp(options: RenderServerOptions): { app: Hono; close(): Promise<void> } {
  const jobs = new Map<string, Job>();
  const ttl = options.reservationTtlMs ?? 60_000;
  const app = new Hono();

  /** Every refusal is thrown and answered by the shared error handler (status from ERROR_HTTP_STATUS). */
  const fail = (error: SeekframeErrorData): SeekframeError => SeekframeError.fromJSON(error);

  /** Frees reservations that were made but never used (the Worker side died between the calls). */
  function sweep(now: number): void {
    for (const job of jobs.values()) {
      if (!job.running && !job.output && now - job.reservedAt > ttl) jobs.delete(job.id);
    }
  }

  function reserve(id: string): Job | null {
    const existing = jobs.get(id);
    if (existing) return existing;
    sweep(Date.now());
    if (jobs.size >= options.maxConcurrent) return null;
    const job: Job = { id, reservedAt: Date.now(), abort: new AbortController(), running: false };
    jobs.set(id, job);
    return job;
  }

  async function release(job: Job): Promise<void> {
    job.abort.abort();
    jobs.delete(job.id);
    if (job.output) await rm(job.output.file, { force: true });
    if (job.projectDir) await rm(job.projectDir, { recursive: true, force: true });
  }

  const capacityError = (): SeekframeErrorData => ({
    code: 'too-many-renders',
    message: `All ${options.maxConcurrent} render slot(s) of this renderer are busy; try again shortly (raise max_instances in wrangler.jsonc for more at once).`,
    retryable: true,
  });

  app.onError(errorHandler({ retryAfterSeconds: 5 }));
  app.use(requestId());
  app.notFound((c) => {
    throw fail({ code: 'not-found', message: `No route ${c.req.method} ${c.req.path} on the render container.`, retryable: false });
  });

  app.get('/health', (c) => c.json({ status: 'ok', activeJobs: jobs.size, maxConcurrent: options.maxConcurrent }));

  const checkJobId = async (c: Context, next: () => Promise<void>) => {
    if (!JOB_ID.test(c.req.param('id') ?? ''))
      throw fail({ code: 'invalid-body', message: 'The job id must be 1-128 letters, digits, "_" or "-".', retryable: false });
    await next();
  };
  app.use('/jobs/:id', checkJobId);
  app.use('/jobs/:id/*', checkJobId);

  app.put('/jobs/:id', (c) => {
    const job = reserve(c.req.param('id'));
    if (!job) throw fail(capacityError());
    return c.json({ id: job.id, reserved: true }, 201);
  });

  app.post('/jobs/:id/render', async (c) => {
    const id = c.req.param('id');
    const job = reserve(id);
    if (!job) throw fail(capacityError());
    if (job.running || job.output)
      throw fail({
        code: 'invalid-body',
        message: `Job ${id} has already rendered on this instance; DELETE /jobs/${id} first.`,
        retryable: false,
      });
    let body: z.output<typeof ContainerRenderBodySchema>;
    try {
      body = ContainerRenderBodySchema.parse(await c.req.json());
    } catch (error) {
      const message =
        error instanceof z.ZodError
          ? error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
          : 'the body is not JSON';
      throw fail({ code: 'invalid-body', message: `Render request for job ${id}: ${message}.`, retryable: false });
    }
    job.running = true;
    // The caller hanging up (the job's Durable Object gone, or a cancel) stops the render.
    c.req.raw.signal.addEventListener('abort', () => job.abort.abort(), { once: true });
    const events = runJob(job, body);
    return new Response(Readable.toWeb(Readable.from(events)) as ReadableStream, {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  });

  app.get('/jobs/:id', (c) => {
    const job = jobs.get(c.req.param('id'));
    if (!job) throw fail({ code: 'render-not-found', message: `Job ${c.req.param('id')} is not on this renderer.`, retryable: false });
    return c.json({
      id: job.id,
      running: job.running,
      output: job.output ? { size: job.output.size, contentType: job.output.contentType } : null,
    });
  });

  app.get('/jobs/:id/output', (c) => {
    const job = jobs.get(c.req.param('id'));
    if (!job?.output)
      throw fail({
        code: 'output-not-found',
        message: `Job ${c.req.param('id')} has no finished output on this renderer.`,
        retryable: false,
      });
    const { file, size, contentType } = job.output;
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, {
      headers: { 'content-type': contentType, 'content-length': String(size), 'cache-control': 'no-store' },
    });
  });

  app.delete('/jobs/:id', async (c) => {
    const job = jobs.get(c.req.param('id'));
    if (job) await release(job);
    return c.json({ id: c.req.param('id'), released: Boolean(job) });
  });

  /** Runs one render and yields its NDJSON lines (throttled progress, the other events as they come). */
  async function* runJob(job: Job, body: z.output<typeof ContainerRenderBodySchema>): AsyncGenerator<string> {
    const queue: ContainerEvent[] = [];
    let wake: (() => void) | undefined;
    let lastProgress = 0;
    const push = (event: ContainerEvent) => {
      queue.push(event);
      wake?.();
    };
    const onEvent = (event: RenderEvent) => {
      if (event.type === 'complete' || event.type === 'error') return; // answered below, in our own shape
      if (event.type === 'progress') {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && event.framesRendered < event.totalFrames) return;
        lastProgress = now;
      }
      push(event);
    };
    const format = body.format ?? 'mp4';
    const done = (async (): Promise<ContainerEvent> => {
      try {
        await mkdir(options.workDir, { recursive: true });
        let projectDir = options.compositionDir;
        if (body.html !== undefined) {
          job.projectDir = await mkdtemp(join(options.workDir, `html-${job.id}-`));
          await writeFile(join(job.projectDir, 'index.html'), body.html);
          projectDir = job.projectDir;
        }
        const shared = {
          projectDir,
          ...(body.fps !== undefined ? { fps: body.fps } : {}),
          variables: body.variables ?? {},
          strictVariables: true,
          limits: effectiveLimits(options.limits, body.limits),
          network: 'sandboxed' as const,
          signal: job.abort.signal,
        };
        // A still: the frame's PNG (renderStills, one browser), not a video.
        const result = body.still
          ? await renderStills({ ...shared, output: join(options.workDir, `${job.id}.png`), at: [body.still] }, onEvent).then((stills) => ({
              output: stills.stills[0]!.output,
              durationMs: stills.durationMs,
              videoDuration: 0,
              frames: 1,
              contentType: 'image/png',
            }))
          : await renderComposition(
              {
                ...shared,
                output: join(options.workDir, `${job.id}.${format}`),
                format,
                ...(body.quality ? { quality: body.quality } : {}),
                ...(body.frames ? { frames: body.frames } : {}),
                workers: options.workers,
              },
              onEvent,
            ).then((video) => ({ ...video, contentType: OUTPUT_CONTENT_TYPES[format] }));
        const size = (await stat(result.output)).size;
        job.output = { file: result.output, size, contentType: result.contentType };
        return {
          type: 'complete',
          size,
          contentType: job.output.contentType,
          durationMs: result.durationMs,
          videoDuration: result.videoDuration,
          frames: result.frames,
        };
      } catch (error) {
        const data: SeekframeErrorData =
          error instanceof SeekframeError
            ? error.toJSON()
            : { code: 'render-failed', message: error instanceof Error ? error.message : String(error), retryable: false };
        return { type: 'error', error: data };
      } finally {
        job.running = false;
        if (job.projectDir) {
          await rm(job.projectDir, { recursive: true, force: true });
          delete job.projectDir;
        }
      }
    })();
    let finished: ContainerEvent | undefined;
    void done.then((event) => {
      finished = event;
      wake?.();
    });
    while (true) {
      while (queue.length > 0) yield `${JSON.stringify(queue.shift())}\n`;
      if (finished) {
        yield `${JSON.stringify(finished)}\n`;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }

  return {
    app,
    async close() {
      await Promise.all([...jobs.values()].map((job) => release(job)));
    },
  };
}

/** The deployment's limits (sent with each job) never raise the container's own (its env). */
export function effectiveLimits(
  own: RenderLimits,
  requested: Partial<Record<'maxFrames' | 'maxRenderSeconds' | 'maxPixels' | 'maxMemoryMB', number>> | undefined,
): RenderLimits {
  const merged: RenderLimits = { ...own };
  for (const name of ['maxFrames', 'maxRenderSeconds', 'maxPixels', 'maxMemoryMB'] as const) {
    const asked = requested?.[name];
    if (asked === undefined) continue;
    const ceiling = own[name];
    merged[name] = ceiling === undefined ? asked : Math.min(ceiling, asked);
  }
  return merged;
}
