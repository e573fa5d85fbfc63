import { Hono } from 'hono';
import type { OutputStore } from '../output-store.js';
import { serveStoredObject } from '../serve-stored-object.js';
import { serverError, type ProducerEnv } from '../server-env.js';

/** `GET /outputs/:token`: a finished file by the token of its `outputUrl`, with Range. */
export function outputRoutes(outputs: OutputStore): Hono<ProducerEnv> {
  return new Hono<ProducerEnv>().get('/outputs/:token', async (c) => {
    const found = await outputs.find(c.req.param('token'));
    const response = found ? await serveStoredObject(outputs.storage, found, c.req.header('range')) : null;
    if (!response) throw serverError('output-not-found', 'No finished output has this token; use the outputUrl from a complete event.');
    return response;
  });
}
