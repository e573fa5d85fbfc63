import { Hono } from 'hono';
import { bearerToken, errorHandler, requestId, requestLimits, type RequestIdEnv } from '@seekframe/producer/http';
import { apiError } from './api-error.js';
import { CAPACITY_RETRY_SECONDS, createJobService } from './job-service.js';
import { compositionLoader } from './load-composition.js';
import { compositionPreflight } from './preflight-composition.js';
import { OPENAPI_PATH, renderApiDocument } from './openapi-document.js';
import { previewRoutes } from './preview-routes.js';
import { DEFAULT_LIMITS, type RenderApiOptions } from './render-api-options.js';
import { processEnv, renderApiSettings, settingsGivenIn } from './render-api-settings.js';
import { SeekframeError } from '@seekframe/composition';
import { compositionRoutes } from './routes/composition-routes.js';
import { renderRoutes } from './routes/render-routes.js';
import { storedRenderRoutes } from './routes/stored-render-routes.js';

/**
 * The render API every template mounts (Hono; web-standard Request/Response only, so it runs in
 * Node, in a Worker and in a Next route). Routes: `GET /` (preview), `GET /api/composition`,
 * `POST /api/render`, `GET|DELETE /api/render/:id`, and `GET /renders/:name` in call-id mode.
 * This is only the list of what is mounted: the job lifecycle is the job service
 * (job-service.ts), the routes are in routes/.
 */
export function createRenderApi(given: RenderApiOptions): Hono<RequestIdEnv> {
  const options = withSettings(given);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const loadComposition = compositionLoader(options.composition);
  const preflight = compositionPreflight(options.composition);
  const service = createJobService({ ...options, limits });
  const serveRenders = options.serveRendersRoute ?? options.answerMode === 'call-id';
  // Every API route needs the token when one is set; the preview page and its assets do not.
  const requireToken = bearerToken({
    token: options.token,
    message: 'This render API needs a token: send the header "Authorization: Bearer <RENDER_API_TOKEN>".',
  });

  let document: ReturnType<typeof renderApiDocument> | undefined;
  const app = new Hono<RequestIdEnv>()
    .onError(errorHandler({ retryAfterSeconds: CAPACITY_RETRY_SECONDS }))
    .notFound(() => {
      throw apiError(
        'not-found',
        `No such route; the render API serves GET /, GET /api/composition, POST /api/render and GET/DELETE /api/render/:id (all described at GET ${OPENAPI_PATH}).`,
      );
    })
    .use(requestId())
    .use(requestLimits())
    // Before the token check, so it needs none: the document describes the API and holds no data.
    // Made on the first request, once per app (a few ms of schema conversion).
    .get(OPENAPI_PATH, (c) =>
      c.json(
        (document ??= renderApiDocument({
          answerMode: options.answerMode,
          serveRenders,
          progressFields: options.runner.progressFields,
          variablesLimit: limits.maxVariablesBytes !== undefined,
          ...(options.title ? { title: options.title } : {}),
        })),
      ),
    )
    .use('/api/*', requireToken)
    .route('/', previewRoutes(options))
    .route('/api', compositionRoutes(loadComposition))
    .route(
      '/api',
      renderRoutes({
        service,
        objects: options.objects,
        loadComposition,
        preflight,
        answerMode: options.answerMode,
        allowCustomHtml: options.allowCustomHtml ?? false,
        allowStills: options.allowStills ?? true,
        limits,
        webhooks: options.webhooks,
      }),
    );
  if (serveRenders) app.use('/renders/*', requireToken).route('/', storedRenderRoutes(options.objects));
  return app;
}

/**
 * The options with every setting that has an environment variable filled in from `options.env`
 * (default the process environment) where not given: read here, so an API built without passing
 * its settings still enforces the RENDER_API_TOKEN its operator set. A variable set but unusable
 * throws (renderApiSettings).
 */
function withSettings(options: RenderApiOptions): RenderApiOptions {
  const settings = renderApiSettings(settingsGivenIn(options), options.env ?? processEnv());
  if (settings.webhookSecret && !options.webhooks) {
    // The secret alone cannot deliver: how deliveries connect and which URLs pass is the
    // platform's (nodeWebhooks on Node, workerWebhookUrlCheck in a Worker). Ignoring it would
    // answer every webhook with "set RENDER_WEBHOOK_SECRET", which is set.
    throw new SeekframeError(
      'invalid-server-options',
      'RENDER_WEBHOOK_SECRET is set, but this render API was given no `webhooks` to check and send deliveries with: pass `webhooks` (on Node `nodeWebhooks(renderApiSettings())` from @seekframe/render-api/node; serveLocal does this), or remove the variable to turn webhooks off.',
      { stage: 'config', details: { variable: 'RENDER_WEBHOOK_SECRET' } },
    );
  }
  return {
    ...options,
    ...(settings.token ? { token: settings.token } : {}),
    allowCustomHtml: settings.allowCustomHtml,
    limits: settings.limits,
    ...(settings.maxConcurrentRenders !== undefined ? { maxConcurrentRenders: settings.maxConcurrentRenders } : {}),
    ...(settings.retentionSeconds !== undefined ? { retentionSeconds: settings.retentionSeconds } : {}),
    ...(options.webhooks && settings.webhookSecret ? { webhooks: { ...options.webhooks, secret: settings.webhookSecret } } : {}),
  };
}
