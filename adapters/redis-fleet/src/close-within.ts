import { withTimeout } from './with-timeout.js';

/** How long closing a BullMQ queue, worker or event reader may take before it is let go. */
export const CLOSE_BOUND_MS = 5_000;

/**
 * Closes a BullMQ object (Queue, QueueEvents, FlowProducer, Worker) without waiting forever.
 * BullMQ's close waits for ioredis' 'end' event, and a client parked between two reconnect
 * attempts (Redis restarted a moment ago) never emits it: a fleet render that ended with
 * render-lost right after a restart hung in its clean-up. close() has by then told the client to
 * disconnect (its reconnect timer is cleared), so a close that fails or takes longer than `ms` is
 * followed by one more disconnect without waiting, and the caller moves on (this is clean-up: a
 * failed close must not hide the error the caller is about to throw).
 */
export async function closeWithin(closable: { close(): Promise<void>; disconnect(): Promise<void> }, ms = CLOSE_BOUND_MS): Promise<void> {
  await withTimeout(closable.close(), ms).catch(() => void closable.disconnect().catch(() => undefined));
}
