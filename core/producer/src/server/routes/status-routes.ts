import { Hono } from 'hono';
import type { ProducerEnv, ServerJobs } from '../server-env.js';

/** `GET /health` (the queue and the warm pool) and `GET /render/queue`. */
export function statusRoutes(server: ServerJobs): Hono<ProducerEnv> {
  return new Hono<ProducerEnv>()
    .get('/health', (c) => c.json({ status: 'ok', ...server.jobs.status(), browserPool: server.browserPool?.() ?? null }))
    .get('/render/queue', (c) => c.json(server.jobs.status()));
}
