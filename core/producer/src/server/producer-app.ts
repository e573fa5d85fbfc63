import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { bearerToken, errorHandler, errorResponse, requestId, requestLimits, type RequestIdEnv } from '../http/index.js';
import type { BrowserPoolStats } from '@seekframe/engine';
import type { OutputStore } from './output-store.js';
import type { RenderJobs } from '../jobs/render-jobs.js';
import type { JobSnapshot } from '../jobs/render-job.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import type { ServerRenderResult } from './run-render-job.js';
import type { ProducerServerConfig } from './server-options.js';
import { isFinalEvent, toServerEvent } from './server-events.js';
import { scrubErrorData, scrubEvent } from './client-safe-error.js';
import { serveStoredObject } from './serve-stored-object.js';
import { openSseStream } from './sse-stream.js';
import { preflightRender } from './preflight-render.js';
import { readBoundedBody } from './read-bounded-body.js';

/** Deepest JSON nesting a body may have; `variables` are flat values in practice. */
const MAX_JSON_DEPTH = 32;

/** What the routes need from the server around them: the job service and the lifecycle. */
export interface ServerJobs {
  jobs: RenderJobs<ParsedRenderRequest, ServerRenderResult>;
  isClosing(): boolean;
  /** The warm browser pool's counts for /health (null: no pool). */
  browserPool?(): BrowserPoolStats | null;
}

/** Seconds a client is told to wait before trying again after 429. */
const RETRY_AFTER_SECONDS = 5;

type Env = { Bindings: { outgoing?: ServerResponse }; Variables: { bodyText: string } & RequestIdEnv['Variables'] };

/** The HTTP surface of the producer server (DESIGN.md section 6). */
export function createProducerApp(
  config: ProducerServerConfig,
  outputs: OutputStore,
  server: ServerJobs,
  scrub: (text: string) => string = (text) => text,
): Hono<Env> {
  const app = new Hono<Env>();
  const { jobs } = server;
  // Every JSON error leaves through here: no absolute server path in it (see client-safe-error.ts).
  const fail = (
    code:
      | 'url-too-long'
      | 'not-found'
      | 'shutting-down'
      | 'body-too-large'
      | 'render-expired'
      | 'render-not-found'
      | 'render-not-running'
      | 'render-cancelled'
      | 'output-not-found',
    message: string,
  ): SeekframeError => new SeekframeError(code, message, { stage: 'config' });

  app.onError(errorHandler({ retryAfterSeconds: RETRY_AFTER_SECONDS, scrub }));
  app.use(requestId());
  app.use(requestLimits());
  app.notFound((c) => {
    throw fail(
      'not-found',
      `No route ${c.req.method} ${c.req.path}; see GET /health, GET /render/queue, POST /render, POST /render/stream, GET|DELETE /render/:id, GET /outputs/:token.`,
    );
  });
  app.use(
    bearerToken({
      token: config.authToken,
      message: 'This server needs "Authorization: Bearer <token>" with the token from PRODUCER_AUTH_TOKEN.',
    }),
  );
  app.use('*', async (_c, next) => {
    if (server.isClosing()) throw fail('shutting-down', 'The server is shutting down and takes no new requests.');
    await next();
  });

  app.get('/health', (c) => c.json({ status: 'ok', ...jobs.status(), browserPool: server.browserPool?.() ?? null }));
  app.get('/render/queue', (c) => c.json(jobs.status()));

  const limit = async (c: Context, next: () => Promise<void>): Promise<void> => {
    const declared = Number(c.req.header('content-length'));
    // Read (and throw away) up to 4x the limit, so the client finishes sending and sees the 413
    // (which closes the connection: what it may still send is not read).
    const read = await readBoundedBody(c.req.raw.body, config.maxBodyBytes, Math.max(4 * config.maxBodyBytes, 8 * 1024 * 1024));
    if ('tooLarge' in read || declared > config.maxBodyBytes) {
      throw fail(
        'body-too-large',
        `The request body is larger than ${config.maxBodyBytes} bytes; put large assets at public URLs instead of inlining them.`,
      );
    }
    c.set('bodyText', read.text);
    await next();
  };
  const readRequest = async (c: Context): Promise<ParsedRenderRequest> => {
    let body: unknown;
    try {
      body = JSON.parse(c.get('bodyText'));
    } catch {
      throw new SeekframeError(
        'invalid-json',
        'The request body is not valid JSON; send Content-Type: application/json with a JSON object.',
        { stage: 'config' },
      );
    }
    if (depthOf(body) > MAX_JSON_DEPTH) {
      throw new SeekframeError(
        'invalid-body',
        `The request body nests deeper than ${MAX_JSON_DEPTH} levels; variables are flat values (strings, numbers, booleans, small arrays or objects).`,
        { stage: 'config' },
      );
    }
    const request = await parseRenderRequest(body, { root: config.root, maxHtmlBytes: config.maxHtmlBytes });
    // Lint errors and limits answer 400 here, before a slot is taken or a stream opened.
    await preflightRender(request, { root: config.root, limits: config.limits });
    return request;
  };

  app.post('/render/stream', limit, async (c) => {
    const request = await readRequest(c);
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
  });

  app.post('/render', limit, async (c) => {
    const request = await readRequest(c);
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
    if (event.type === 'cancelled') throw fail('render-cancelled', `The render was cancelled: ${event.reason}.`);
    if (event.type !== 'error') throw new Error(`job ${job.id} ended without a final event`);
    return errorResponse(event.error);
  });

  const lookup = (c: Context): JobSnapshot<ServerRenderResult> => {
    const id = c.req.param('id') ?? '';
    const job = jobs.get(id);
    if (job) return job;
    if (jobs.expired(id))
      throw fail(
        'render-expired',
        `Render ${id} ended more than ${config.jobRetentionSeconds} s ago and is no longer kept; its output, if any, stays at its outputUrl.`,
      );
    throw fail('render-not-found', `No render has the id ${id.slice(0, 80)}; use the requestId from POST /render or POST /render/stream.`);
  };

  app.get('/render/:id', (c) => c.json(jobView(lookup(c), scrub)));

  app.delete('/render/:id', (c) => {
    const job = lookup(c);
    if (!jobs.cancel(job.id, 'cancelled by DELETE /render/:id'))
      throw fail('render-not-running', `Render ${job.id} already ended (${job.status}); there is nothing to cancel.`);
    return c.json(jobView(jobs.get(job.id) ?? job, scrub), 202);
  });

  app.get('/outputs/:token', async (c) => {
    const found = await outputs.find(c.req.param('token'));
    const response = found ? await serveStoredObject(outputs.storage, found, c.req.header('range')) : null;
    if (!response) throw fail('output-not-found', 'No finished output has this token; use the outputUrl from a complete event.');
    return response;
  });
  return app;
}

/** `GET /render/:id`: the job as JSON, its id named `requestId` as in the stream's events. */
function jobView(job: JobSnapshot<ServerRenderResult>, scrub: (text: string) => string): Record<string, unknown> {
  const { id, error, result, ...rest } = job;
  return { requestId: id, ...rest, ...(result ? { result } : {}), ...(error ? { error: scrubErrorData(error, scrub) } : {}) };
}

/** Nesting depth of a JSON value, counted without recursion (a hostile body cannot overflow the stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    if (item !== null && typeof item === 'object') for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}
