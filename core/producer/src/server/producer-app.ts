import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SeekframeError } from '@seekframe/composition';
import { serveFile } from '../serve-file.js';
import type { OutputStore } from './output-store.js';
import type { QueueStatus } from './render-queue.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import type { ProducerServerConfig } from './server-options.js';
import { isFinalEvent, type FinalServerEvent, type ProducerServerEvent } from './server-events.js';
import { openSse } from './sse-response.js';

/** What the routes need from the server around them (queue, jobs, lifecycle). */
export interface RenderDispatcher {
  status(): QueueStatus;
  isClosing(): boolean;
  /** Queues a render; `emit` hears every event, including the final one. */
  submit(request: ParsedRenderRequest, emit: (event: ProducerServerEvent) => void): { requestId: string; cancel(reason: string): void; done: Promise<FinalServerEvent> };
}

type Env = { Bindings: { outgoing?: ServerResponse } };

/** Errors a client caused: the composition or the request is unusable as given. */
const CLIENT_STAGES = new Set(['config', 'lint', 'load', 'variables']);

/** The HTTP surface of the producer server (DESIGN.md section 6). */
export function createProducerApp(config: ProducerServerConfig, outputs: OutputStore, dispatcher: RenderDispatcher): Hono<Env> {
  const app = new Hono<Env>();
  const fail = (c: Context, status: 400 | 401 | 404 | 413 | 500 | 503, code: string, message: string) => c.json({ error: { code, message } }, status);

  app.onError((error, c) => {
    if (error instanceof SeekframeError) return fail(c, 400, error.code, error.message);
    return fail(c, 500, 'internal-error', `The server failed on ${c.req.method} ${c.req.path}: ${error.message}`);
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

  const limit = bodyLimit({
    maxSize: config.maxBodyBytes,
    onError: (c) => fail(c, 413, 'body-too-large', `The request body is larger than ${config.maxBodyBytes} bytes; put large assets at public URLs instead of inlining them.`),
  });
  const readRequest = async (c: Context): Promise<ParsedRenderRequest> => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new SeekframeError('invalid-json', 'The request body is not valid JSON; send Content-Type: application/json with a JSON object.', { stage: 'config' });
    }
    return parseRenderRequest(body, { root: config.root, maxHtmlBytes: config.maxHtmlBytes });
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
