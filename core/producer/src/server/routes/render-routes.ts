import { Hono, type Context } from 'hono';
import { errorResponse } from '../../http/index.js';
import type { JobSnapshot } from '../../jobs/render-job.js';
import { scrubErrorData, scrubEvent } from '../client-safe-error.js';
import { bodyWithin, readRenderRequest } from '../read-render-request.js';
import type { ServerRenderResult } from '../run-render-job.js';
import { serverError, type ProducerEnv, type ServerJobs } from '../server-env.js';
import { isFinalEvent, toServerEvent } from '../server-events.js';
import type { ProducerServerConfig } from '../server-options.js';
import { openSseStream } from '../sse-stream.js';

/**
 * The render routes: `POST /render/stream` (server-sent events), `POST /render` (blocking, or 202
 * with `Prefer: respond-async`), `GET /render/:id`, `DELETE /render/:id`. Every event and error that
 * leaves goes through `scrub` (no absolute server path).
 */
export function renderRoutes(config: ProducerServerConfig, server: ServerJobs, scrub: (text: string) => string): Hono<ProducerEnv> {
  const { jobs } = server;
  const lookup = (c: Context<ProducerEnv>): JobSnapshot<ServerRenderResult> => {
    const id = c.req.param('id') ?? '';
    const job = jobs.get(id);
    if (job) return job;
    if (jobs.expired(id))
      throw serverError(
        'render-expired',
        `Render ${id} ended more than ${config.jobRetentionSeconds} s ago and is no longer kept; its output, if any, stays at its outputUrl.`,
      );
    throw serverError(
      'render-not-found',
      `No render has the id ${id.slice(0, 80)}; use the requestId from POST /render or POST /render/stream.`,
    );
  };

  return new Hono<ProducerEnv>()
    .post('/render/stream', bodyWithin(config), async (c) => {
      const request = await readRenderRequest(c, config);
      // Submitted before the stream opens: a full line answers 429 JSON, not a stream.
      const job = jobs.submit(request);
      let unsubscribe: (() => void) | null = null;
      const stream = openSseStream({
        outgoing: c.env?.outgoing,
        onDisconnect: () => {
          unsubscribe?.();
          jobs.cancel(job.id, 'the client disconnected');
        },
      });
      // The one place events leave a render for a stream: no absolute server path gets through.
      unsubscribe = jobs.subscribe(job.id, (event, snapshot) => {
        const out = toServerEvent(event, snapshot);
        if (!out) return;
        stream.send(out.type, scrubEvent(out, scrub));
        if (isFinalEvent(out)) stream.end();
      });
      return stream.response;
    })
    .post('/render', bodyWithin(config), async (c) => {
      const request = await readRenderRequest(c, config);
      const job = jobs.submit(request);
      if (/\brespond-async\b/i.test(c.req.header('prefer') ?? '')) {
        // Detached from this connection: the client polls GET /render/:id (and may DELETE it).
        const statusUrl = `/render/${job.id}`;
        c.header('location', statusUrl);
        return c.json({ requestId: job.id, status: job.status, statusUrl }, 202);
      }
      const outgoing = c.env?.outgoing;
      const onClose = (): void => void jobs.cancel(job.id, 'the client disconnected');
      outgoing?.once('close', onClose);
      const final = (await jobs.settled(job.id))!;
      outgoing?.off('close', onClose);
      const event = scrubEvent(toServerEvent({ type: 'snapshot' }, final)!, scrub);
      if (event.type === 'complete') return c.json(event);
      if (event.type === 'cancelled') throw serverError('render-cancelled', `The render was cancelled: ${event.reason}.`);
      if (event.type !== 'error') throw new Error(`job ${job.id} ended without a final event`);
      return errorResponse(event.error);
    })
    .get('/render/:id', (c) => c.json(jobView(lookup(c), scrub)))
    .delete('/render/:id', (c) => {
      const job = lookup(c);
      if (!jobs.cancel(job.id, 'cancelled by DELETE /render/:id'))
        throw serverError('render-not-running', `Render ${job.id} already ended (${job.status}); there is nothing to cancel.`);
      return c.json(jobView(jobs.get(job.id) ?? job, scrub), 202);
    });
}

/** `GET /render/:id`: the job as JSON, its id named `requestId` as in the stream's events. */
function jobView(job: JobSnapshot<ServerRenderResult>, scrub: (text: string) => string): Record<string, unknown> {
  const { id, error, result, ...rest } = job;
  return { requestId: id, ...rest, ...(result ? { result } : {}), ...(error ? { error: scrubErrorData(error, scrub) } : {}) };
}
