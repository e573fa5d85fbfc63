import { Redis } from 'ioredis';
import type { QueueSettings } from './queue-settings.js';

/** How long a render stays marked cancelled (its jobs are long gone by then). */
const CANCEL_TTL_SECONDS = 24 * 3600;

const cancelKey = (settings: QueueSettings, renderId: string): string => `seekframe:${settings.queueName}:cancelled:${renderId}`;
const cancelChannel = (settings: QueueSettings): string => `seekframe:${settings.queueName}:cancel`;

/**
 * A cancel reaches every worker two ways: a key (`…:cancelled:<renderId>`) that a worker checks
 * before it starts a chunk of the render, and a message on a channel that stops the chunks
 * already running. BullMQ's own job cancellation only reaches the worker it is called in.
 */
export async function markCancelled(client: Redis, settings: QueueSettings, renderId: string): Promise<void> {
  await client.set(cancelKey(settings, renderId), '1', 'EX', CANCEL_TTL_SECONDS);
  await client.publish(cancelChannel(settings), renderId);
}

export async function isCancelled(client: Redis, settings: QueueSettings, renderId: string): Promise<boolean> {
  return (await client.exists(cancelKey(settings, renderId))) === 1;
}

/** Calls `onCancel(renderId)` for every cancel published on the queue's channel; resubscribes after a reconnect. */
export async function listenForCancels(settings: QueueSettings, onCancel: (renderId: string) => void): Promise<{ close(): Promise<void> }> {
  const subscriber = new Redis({ ...settings.connection, connectionName: 'seekframe-cancel' });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (_channel: string, renderId: string) => onCancel(renderId));
  await subscriber.subscribe(cancelChannel(settings));
  return {
    async close() {
      subscriber.disconnect();
    },
  };
}
