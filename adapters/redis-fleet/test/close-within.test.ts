import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { closeWithin } from '../src/close-within.js';
import { startRedis } from './support/redis-server.js';
import { until } from './support/until.js';

// The cause of a fleet render that hung in its clean-up after Redis restarted: BullMQ's close()
// waits for an ioredis 'end' that a client waiting to reconnect never emits.
it('an event reader whose client waits to reconnect is closed within the bound, where BullMQ alone waits for ever', async () => {
  const redis = await startRedis();
  const readers = [0, 1].map(() => new QueueEvents('close-within', { connection: { host: '127.0.0.1', port: redis.port } }));
  const clients = await Promise.all(
    readers.map(async (reader) => {
      reader.on('error', () => undefined);
      await reader.waitUntilReady();
      return (reader.backend as unknown as { client: Promise<Redis> }).client;
    }),
  );
  await redis.stop();
  await until(async () => clients.every((client) => client.status === 'reconnecting'), 'both clients to wait to reconnect', 30_000);

  // BullMQ's own close on the first: still pending after 3 s. It never settles, so a slower
  // machine only makes this surer; it shows the cause that closeWithin is there for.
  let settled = false;
  void readers[0]!.close().finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(settled).toBe(false);

  // closeWithin on the second: returns at its bound.
  let returned = false;
  const closing = closeWithin(readers[1]!, 1_000).then(() => (returned = true));
  await until(async () => returned, 'closeWithin to return', 30_000);
  await closing;
  expect(returned).toBe(true);
}, 90_000);
