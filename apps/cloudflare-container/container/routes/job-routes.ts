import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { ContainerRenderBodySchema } from '@seekframe/cloudflare-container/protocol';
import type { JobSlots } from '../job-slots.js';
import { runContainerJob, type ContainerRenderSettings } from '../run-container-job.js';

const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 *   PUT    /jobs/:id          reserve a render slot (429 too-many-renders when all are taken)
 *   POST   /jobs/:id/render   run the render; answers NDJSON events, the last one `complete` or `error`
 *   GET    /jobs/:id/output   the finished file with Content-Length (R2 refuses a body of unknown length)
 *   GET    /jobs/:id          {id, running, output}
 *   DELETE /jobs/:id          cancel a running render, delete its file, free the slot
 * Every refusal is thrown and answered by the server's error handler (status from ERROR_HTTP_STATUS).
 */
export function jobRoutes(slots: JobSlots, settings: ContainerRenderSettings): Hono {
  const checkJobId = async (c: Context, next: () => Promise<void>) => {
    if (!JOB_ID.test(c.req.param('id') ?? ''))
      throw new SeekframeError('invalid-body', 'The job id must be 1-128 letters, digits, "_" or "-".');
    await next();
  };
  return new Hono()
    .use('/jobs/:id', checkJobId)
    .use('/jobs/:id/*', checkJobId)
    .put('/jobs/:id', (c) => {
      const job = slots.reserve(c.req.param('id'));
      return c.json({ id: job.id, reserved: true }, 201);
    })
    .post('/jobs/:id/render', async (c) => {
      const id = c.req.param('id');
      const job = slots.reserve(id);
      if (job.running || job.output)
        throw new SeekframeError('invalid-body', `Job ${id} has already rendered on this instance; DELETE /jobs/${id} first.`);
      const body = await readRenderBody(c, id);
      job.running = true;
      // The caller hanging up (the job's Durable Object gone, or a cancel) stops the render.
      c.req.raw.signal.addEventListener('abort', () => job.abort.abort(), { once: true });
      const events = runContainerJob(job, body, settings);
      return new Response(Readable.toWeb(Readable.from(events)) as ReadableStream, {
        headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
      });
    })
    .get('/jobs/:id', (c) => {
      const job = slots.get(c.req.param('id'));
      if (!job) throw new SeekframeError('render-not-found', `Job ${c.req.param('id')} is not on this renderer.`);
      const output = job.output ? { size: job.output.size, contentType: job.output.contentType } : null;
      return c.json({ id: job.id, running: job.running, output });
    })
    .get('/jobs/:id/output', (c) => {
      const job = slots.get(c.req.param('id'));
      if (!job?.output) throw new SeekframeError('output-not-found', `Job ${c.req.param('id')} has no finished output on this renderer.`);
      const { file, size, contentType } = job.output;
      return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, {
        headers: { 'content-type': contentType, 'content-length': String(size), 'cache-control': 'no-store' },
      });
    })
    .delete('/jobs/:id', async (c) => {
      const job = slots.get(c.req.param('id'));
      if (job) await slots.release(job);
      return c.json({ id: c.req.param('id'), released: Boolean(job) });
    });
}

async function readRenderBody(c: Context, id: string): Promise<z.output<typeof ContainerRenderBodySchema>> {
  try {
    return ContainerRenderBodySchema.parse(await c.req.json());
  } catch (error) {
    const message =
      error instanceof z.ZodError
        ? error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
        : 'the body is not JSON';
    throw new SeekframeError('invalid-body', `Render request for job ${id}: ${message}.`);
  }
}
