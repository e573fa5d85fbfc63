/**
 * The render server `seekframe serve` runs, for your own Node process: a FIFO queue of renders
 * with server-sent progress (`POST /render/stream`), blocking `POST /render`, `GET /render/queue`.
 *
 * ```ts
 * import { createProducerServer } from '@seekframe/producer';
 * const server = await createProducerServer({ port: 9847, root: './projects' });
 * ```
 * @module The producer server
 */
export {
  createProducerServer,
  type ProducerServer,
  type ProducerServerOptionsInput,
  type ProducerServerConfig,
  type ProducerServerEvent,
  type QueueStatus,
} from '@seekframe/producer';
