import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { serveFile } from '../serve/serve-file.js';
import type { OutputStore } from './output-store.js';
import type { QueueStatus } from '../jobs/render-queue.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import type { ProducerServerConfig } from './server-options.js';
import { isFinalEvent, type FinalServerEvent, type ProducerServerEvent } from './server-events.js';
import { openSse } from './sse-response.js';
import { preflightRender } from './preflight-render.js';
import { readBoundedBody } from './read-bounded-body.js';

/** Longest URL answered (414 beyond); Node itself caps request line + headers at 16 KiB (431). */
const MAX_URL_BYTES = 8 * 1024;
/** Deepest JSON nesting a body may have; `variables` are flat values in practice. */
const MAX_JSON_DEPTH = 32;

/** What the routes need from the server around them (queue, jobs, lifecycle). */
export interface RenderDispatcher {
  status(): QueueStatus;
  isClosing(): boolean;
  /** Queues a render; `emit` hears every event, including the final one. */
  submit(request: ParsedRenderRequest, emit: (event: ProducerServerEvent) => void): { requestId: string; cancel(reason: string): void; done: Promise<FinalServerEvent> };
}

type Env = { Bindings: { outgoing?: ServerResponse }; Variables: { bodyText: string } };

/** Errors a client caused: the composition or the request is unusable as given. */
const CLIENT_STAGES = new Set(['config', 'lint', 'load', 'variables']);

/** The HTTP surface of the producer server (DESIGN.md section 6). */
export function createProducerApp(config: ProducerServerConfig, outputs: OutputStore, dispatcher: RenderDispatcher, scrub: (text: string) => string = (text) => text): Hono<Env> {
  const app = new Hono<Env>();
  // Every JSON error leaves through here: no absolute server path in it (see client-safe-error.ts).
  const fail = (c: Context, status: 400 | 401 | 404 | 413 | 414 | 500 | 503, code: string, message: string) => c.json({ error: { code, message: scrub(message) } }, status);

  app.onError((error, c) => {
    if (error instanceof SeekframeError) {
      const data = error.toJSON();
      return c.json({ error: { code: data.code, message: scrub(data.message), ...(data.details ? { details: JSON.parse(scrub(JSON.stringify(data.details))) as unknown } : {}) } }, 400);
    }
    return fail(c, 500, 'internal-error', `The server failed on ${c.req.method} ${c.req.path}: ${error.message}`);
  });
  app.use('*', async (c, next) => {
    if (Buffer.byteLength(c.req.url) > MAX_URL_BYTES) return fail(c, 414, 'url-too-long', `The request URL is longer than ${MAX_URL_BYTES} bytes; send parameters in a JSON body.`);
    await next();
  });
  app.notFound((c) => fail(c, 404, 'not-found', `No route ${c.req.method} ${c.req.path}; see GET /health, GET /render/queue, POST /render, POST /render/stream, GET /outputs/:token.`));

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
    if (dispatcher.isClosing()) return fail(c, 503, 'shutting-down', 'The server is shutting down and takes no new requests.');
    await next();
  });

  app.get('/health', (c) => c.json({ status: 'ok', ...dispatcher.status() }));
  app.get('/render/queue', (c) => c.json(dispatcher.status()));

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
    let job: ReturnType<RenderDispatcher['submit']> | undefined;
    const channel = openSse(c.env?.outgoing, () => job?.cancel('the client disconnected'));
    job = dispatcher.submit(request, (event) => {
      channel.send(event);
      if (isFinalEvent(event)) channel.end();
    });
    return channel.response;
  });

  app.post('/render', limit, async (c) => {
    const request = await readRequest(c);
    const job = dispatcher.submit(request, () => undefined);
    const outgoing = c.env?.outgoing;
    const onClose = (): void => job.cancel('the client disconnected');
    outgoing?.once('close', onClose);
    const final = await job.done;
    outgoing?.off('close', onClose);
    if (final.type === 'complete') return c.json(final);
    if (final.type === 'cancelled') return fail(c, 503, 'render-cancelled', `The render was cancelled: ${final.reason}.`);
    return c.json({ error: final.error }, final.error.stage && CLIENT_STAGES.has(final.error.stage) ? 400 : 500);
  });

  app.get('/outputs/:token', async (c) => {
    const found = await outputs.find(c.req.param('token'));
    if (!found) return fail(c, 404, 'output-not-found', 'No finished output has this token; use the outputUrl from a complete event.');
    return serveFile(found.file, found.size, c.req.header('range'));
  });
  return app;
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
