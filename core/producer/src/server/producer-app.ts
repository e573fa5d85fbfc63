import { Hono } from 'hono';
import { bearerToken, errorHandler, requestId, requestLimits } from '../http/index.js';
import type { OutputStore } from './output-store.js';
import { outputRoutes } from './routes/output-routes.js';
import { renderRoutes } from './routes/render-routes.js';
import { statusRoutes } from './routes/status-routes.js';
import { serverError, type ProducerEnv, type ServerJobs } from './server-env.js';
import type { ProducerServerConfig } from './server-options.js';

export type { ServerJobs } from './server-env.js';

/** Seconds a client is told to wait before trying again after 429. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The HTTP surface of the producer server (DESIGN.md section 6): the list of what is mounted.
 * Every JSON error leaves through the one error handler, scrubbed of absolute server paths
 * (client-safe-error.ts).
 */
export function createProducerApp(
  config: ProducerServerConfig,
  outputs: OutputStore,
  server: ServerJobs,
  scrub: (text: string) => string = (text) => text,
): Hono<ProducerEnv> {
  return new Hono<ProducerEnv>()
    .onError(errorHandler({ retryAfterSeconds: RETRY_AFTER_SECONDS, scrub }))
    .use(requestId())
    .use(requestLimits())
    .notFound((c) => {
      throw serverError(
        'not-found',
        `No route ${c.req.method} ${c.req.path}; see GET /health, GET /render/queue, POST /render, POST /render/stream, GET|DELETE /render/:id, GET /outputs/:token.`,
      );
    })
    .use(
      bearerToken({
        token: config.authToken,
        message: 'This server needs "Authorization: Bearer <token>" with the token from PRODUCER_AUTH_TOKEN.',
      }),
    )
    .use('*', async (_c, next) => {
      if (server.isClosing()) throw serverError('shutting-down', 'The server is shutting down and takes no new requests.');
      await next();
    })
    .route('/', statusRoutes(server))
    .route('/', renderRoutes(config, server, scrub))
    .route('/', outputRoutes(outputs));
}
