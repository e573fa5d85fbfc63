import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { httpStatusOf } from '@seekframe/composition';
import { bearerToken, errorHandler, errorResponse, requestId } from '@seekframe/producer/http';
import { lambdaError } from '../errors.js';
import { checkVariablesAgainst } from './check-variables.js';
import { lambdaApiDocument, OPENAPI_PATH } from './openapi-document.js';
import { MAX_VARIABLES_BYTES, parseJsonBody, parseRenderBody } from './render-body.js';
import { cancelRender, readRenderProgress, startRender, type RenderService } from './render-service.js';

/** Bodies above this are refused before parsing (the variables cap plus room for the rest). */
const MAX_BODY_BYTES = MAX_VARIABLES_BYTES + 16 * 1024;

/**
 * The API function behind the function URL: POST /api/render starts a render (202 + id),
 * GET /api/render/:id answers 202 with progress and cost while it runs, then 302 to a
 * presigned URL of the output (200 JSON with `output.url` for `Accept: application/json`).
 * Errors are `{error: {code, message, stage?, retryable, details?}}` as in the render API contract.
 */
export function createLambdaApiApp(service: RenderService, options: { token?: string } = {}): Hono {
  const app = new Hono();
  app.onError(errorHandler());
  app.use(requestId());
  // Before the token check, so it needs none: the document describes the API and holds no data.
  let document: ReturnType<typeof lambdaApiDocument> | undefined;
  app.get(OPENAPI_PATH, (c) => c.json((document ??= lambdaApiDocument(httpStatusOf))));
  app.notFound(() => {
    throw lambdaError('not-found', `No such route; the Lambda render API serves POST /api/render and GET/DELETE /api/render/:id (described at GET ${OPENAPI_PATH}).`);
  });
  app.use('/api/*', bearerToken({ token: options.token, message: 'This render API needs a token: send the header "Authorization: Bearer <RENDER_API_TOKEN>".' }));

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
    if (progress.status === 'failed' && progress.error) return errorResponse(progress.error);
    if (progress.status === 'cancelled') throw lambdaError('render-cancelled', `Render ${progress.id} was cancelled.`);
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
