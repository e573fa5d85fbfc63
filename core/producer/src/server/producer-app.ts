import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import type { BrowserPoolStats } from '@seekframe/engine';
import type { OutputStore } from './output-store.js';
import type { RenderJobs } from '../jobs/render-jobs.js';
import type { JobSnapshot } from '../jobs/render-job.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import type { ServerRenderResult } from './run-render-job.js';
import type { ProducerServerConfig } from './server-options.js';
import { isFinalEvent, toServerEvent, type ProducerServerEvent } from './server-events.js';
import { scrubErrorData, scrubEvent } from './client-safe-error.js';
import { serveStoredObject } from './serve-stored-object.js';
import { openSseStream } from './sse-stream.js';
import { preflightRender } from './preflight-render.js';
import { readBoundedBody } from './read-bounded-body.js';

/** Longest URL answered (414 beyond); Node itself caps request line + headers at 16 KiB (431). */
const MAX_URL_BYTES = 8 * 1024;
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

type Env = { Bindings: { outgoing?: ServerResponse }; Variables: { bodyText: string } };

/** Errors a client caused: the composition or the request is unusable as given. */
const CLIENT_STAGES = new Set(['config', 'lint', 'load', 'variables']);

/** The HTTP surface of the producer server (DESIGN.md section 6). */
export function createProducerApp(config: ProducerServerConfig, outputs: OutputStore, server: ServerJobs, scrub: (text: string) => string = (text) => text): Hono<Env> {
  const app = new Hono<Env>();
  const { jobs } = server;
  // Every JSON error leaves through here: no absolute server path in it (see client-safe-error.ts).
  const fail = (c: Context, status: 400 | 401 | 404 | 409 | 410 | 413 | 414 | 500 | 503, code: string, message: string) => c.json({ error: { code, message: scrub(message) } }, status);

  app.onError((error, c) => {
    if (error instanceof SeekframeError) {
      const data = error.toJSON();
      // A full line is the client's cue to come back later, not a bad request.
      if (data.code === 'too-many-renders') c.header('retry-after', String(RETRY_AFTER_SECONDS));
      const status = data.code === 'too-many-renders' ? 429 : data.code === 'shutting-down' ? 503 : 400;
      return c.json({ error: { code: data.code, message: scrub(data.message), ...(data.details ? { details: JSON.parse(scrub(JSON.stringify(data.details))) as unknown } : {}) } }, status);
    }
    return fail(c, 500, 'internal-error', `The server failed on ${c.req.method} ${c.req.path}: ${error.message}`);
  });
  app.use('*', async (c, next) => {
    if (Buffer.byteLength(c.req.url) > MAX_URL_BYTES) return fail(c, 414, 'url-too-long', `The request URL is longer than ${MAX_URL_BYTES} bytes; send parameters in a JSON body.`);
    await next();
  });
  app.notFound((c) => fail(c, 404, 'not-found', `No route ${c.req.method} ${c.req.path}; see GET /health, GET /render/queue, POST /render, POST /render/stream, GET|DELETE /render/:id, GET /outputs/:token.`));

  if (config.authToken) {
    const expected = digest(config.authToken);
    app.use('*', async (c, next) => {
      const header = c.req.header('authorization') ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match || !timingSafeEqual(digest(match[1]!.trim()), expected)) {
        c.header('www-authenticate', 'Bearer');
        return fail(c, 401, 'unauthorized', 'This server needs "Authorization: Bearer <token>" with the token from PRODUCER_AUTH_TOKEN.');
      }
      await next();
    });
  }
  app.use('*', async (c, next) => {
    if (server.isClosing()) return fail(c, 503, 'shutting-down', 'The server is shutting down and takes no new requests.');
    await next();
  });

  app.get('/health', (c) => c.json({ status: 'ok', ...jobs.status(), browserPool: server.browserPool?.() ?? null }));
  app.get('/render/queue', (c) => c.json(jobs.status()));

  const tooLarge = (c: Context, drained: boolean): Response => {
    // Not drained: the client sends on; close the connection after the answer instead of reading more.
    if (!drained) c.header('connection', 'close');
    return fail(c, 413, 'body-too-large', `The request body is larger than ${config.maxBodyBytes} bytes; put large assets at public URLs instead of inlining them.`);
  };
  const limit = async (c: Context, next: () => Promise<void>): Promise<Response | void> => {
    const declared = Number(c.req.header('content-length'));
    // Read (and throw away) up to 4x the limit, so the client finishes sending and sees the 413.
    const read = await readBoundedBody(c.req.raw.body, config.maxBodyBytes, Math.max(4 * config.maxBodyBytes, 8 * 1024 * 1024));
    if ('tooLarge' in read || declared > config.maxBodyBytes) return tooLarge(c, 'tooLarge' in read ? read.drained : true);
    c.set('bodyText', read.text);
    await next();
  };
  const readRequest = async (c: Context): Promise<ParsedRenderRequest> => {
    let body: unknown;
    try {
      body = JSON.parse(c.get('bodyText'));
    } catch {
      throw new SeekframeError('invalid-json', 'The request body is not valid JSON; send Content-Type: application/json with a JSON object.', { stage: 'config' });
    }
    if (depthOf(body) > MAX_JSON_DEPTH) {
      throw new SeekframeError('invalid-body', `The request body nests deeper than ${MAX_JSON_DEPTH} levels; variables are flat values (strings, numbers, booleans, small arrays or objects).`, { stage: 'config' });
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
    if (event.type === 'cancelled') return fail(c, 503, 'render-cancelled', `The render was cancelled: ${event.reason}.`);
    if (event.type !== 'error') throw new Error(`job ${job.id} ended without a final event`);
    return c.json({ error: event.error }, event.error.stage && CLIENT_STAGES.has(event.error.stage) ? 400 : 500);
  });

  const lookup = (c: Context): JobSnapshot<ServerRenderResult> | Response => {
    const id = c.req.param('id') ?? '';
    const job = jobs.get(id);
    if (job) return job;
    if (jobs.expired(id)) return fail(c, 410, 'render-expired', `Render ${id} ended more than ${config.jobRetentionSeconds} s ago and is no longer kept; its output, if any, stays at its outputUrl.`);
    return fail(c, 404, 'render-not-found', `No render has the id ${id.slice(0, 80)}; use the requestId from POST /render or POST /render/stream.`);
  };

  app.get('/render/:id', (c) => {
    const job = lookup(c);
    return job instanceof Response ? job : c.json(jobView(job, scrub));
  });

  app.delete('/render/:id', (c) => {
    const job = lookup(c);
    if (job instanceof Response) return job;
    if (!jobs.cancel(job.id, 'cancelled by DELETE /render/:id')) return fail(c, 409, 'render-not-running', `Render ${job.id} already ended (${job.status}); there is nothing to cancel.`);
    return c.json(jobView(jobs.get(job.id) ?? job, scrub), 202);
  });

  app.get('/outputs/:token', async (c) => {
    const found = await outputs.find(c.req.param('token'));
    const response = found ? await serveStoredObject(outputs.storage, found, c.req.header('range')) : null;
    return response ?? fail(c, 404, 'output-not-found', 'No finished output has this token; use the outputUrl from a complete event.');
  });
  return app;
}

/** `GET /render/:id`: the job as JSON, its id named `requestId` as in the stream's events. */
function jobView(job: JobSnapshot<ServerRenderResult>, scrub: (text: string) => string): Record<string, unknown> {
  const { id, error, result, ...rest } = job;
  return { requestId: id, ...rest, ...(result ? { result } : {}), ...(error ? { error: scrubErrorData(error, scrub) } : {}) };
}

/** Fixed-length digests, so comparing tokens of different lengths takes the same time. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
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
