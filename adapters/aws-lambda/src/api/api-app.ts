import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { lambdaError } from '../errors.js';
import { checkVariablesAgainst } from './check-variables.js';
import { lambdaApiDocument, OPENAPI_PATH } from './openapi-document.js';
import { MAX_VARIABLES_BYTES, parseJsonBody, parseRenderBody } from './render-body.js';
import { cancelRender, readRenderProgress, startRender, type RenderService } from './render-service.js';

/** Bodies above this are refused before parsing (the variables cap plus room for the rest). */
const MAX_BODY_BYTES = MAX_VARIABLES_BYTES + 16 * 1024;

const STATUS: Partial<Record<string, 400 | 401 | 403 | 404 | 409 | 413 | 500>> = {
  'invalid-json': 400,
  'invalid-body': 400,
  'invalid-variables': 400,
  'invalid-options': 400,
  'lint-failed': 400,
  'webhook-secret-missing': 400,
  'format-not-distributable': 400,
  'limit-exceeded': 400,
  unauthorized: 401,
  'custom-html-disabled': 403,
  'render-not-found': 404,
  'idempotency-conflict': 409,
  'render-not-running': 409,
  'render-cancelled': 409,
  'variables-too-large': 413,
  'body-too-large': 413,
};

/**
 * The API function behind the function URL: POST /api/render starts a render (202 + id),
 * GET /api/render/:id answers 202 with progress and cost while it runs, then 302 to a
 * presigned URL of the output (200 JSON with `output.url` for `Accept: application/json`).
 * Errors are `{error: {code, message, stage?, retryable, details?}}` as in the render API contract.
 */
export function createLambdaApiApp(service: RenderService, options: { token?: string } = {}): Hono {
  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error instanceof SeekframeError ? error : lambdaError('internal-error', 'The render API hit an unexpected problem; try again.', { retryable: true })));
  // Before the token check, so it needs none: the document describes the API and holds no data.
  let document: ReturnType<typeof lambdaApiDocument> | undefined;
  app.get(OPENAPI_PATH, (c) => c.json((document ??= lambdaApiDocument(statusOf))));
  app.use('/api/*', async (c, next) => {
    if (options.token && !bearerMatches(c.req.header('authorization'), options.token)) {
      throw lambdaError('unauthorized', 'Send the deployment token as `Authorization: Bearer <token>`.');
    }
    await next();
  });

  app.post('/api/render', async (c) => {
    const text = await c.req.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
      throw lambdaError('body-too-large', `The request body is over ${MAX_BODY_BYTES / 1024} KiB. Pass large data as URLs in the variables.`);
    }
    const body = parseRenderBody(parseJsonBody(text));
    if (service.defaultProjectDir) await checkVariablesAgainst(service.defaultProjectDir, body.variables);
    const key = c.req.header('idempotency-key');
    const id = key ? `key-${createHash('sha256').update(key).digest('hex').slice(0, 32)}` : undefined;
    const started = await startRender(service, { ...(id ? { id } : {}), body });
    const statusUrl = `/api/render/${started.id}`;
    c.header('Location', statusUrl);
    return c.json({ id: started.id, status: started.status, statusUrl }, 202);
  });

  app.get('/api/render/:id', async (c) => {
    const progress = await readRenderProgress(service, c.req.param('id'));
    c.header('Cache-Control', 'no-store');
    if (progress.status === 'failed' && progress.error) return errorResponse(c, progress.error);
    if (progress.status === 'cancelled') return errorResponse(c, lambdaError('render-cancelled', `Render ${progress.id} was cancelled.`));
    if (progress.status === 'completed' && progress.output?.url) {
      if ((c.req.header('accept') ?? '').includes('application/json')) return c.json(progress, 200);
      return c.redirect(progress.output.url, 302);
    }
    c.header('Retry-After', '2');
    return c.json(progress, 202);
  });
  app.delete('/api/render/:id', async (c) => c.json(await cancelRender(service, c.req.param('id')), 202));
  return app;
}

function errorResponse(c: Context, error: SeekframeError | SeekframeErrorData): Response {
  const data = error instanceof SeekframeError ? error.toJSON() : error;
  return c.json({ error: data }, statusOf(data.code));
}

function statusOf(code: string): 400 | 401 | 403 | 404 | 409 | 413 | 500 {
  return STATUS[code] ?? 500;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
