/** How long closing a BullMQ queue, worker or event reader may take before it is let go. */
export const CLOSE_BOUND_MS = 5_000;

/**
 * Closes a BullMQ object (Queue, QueueEvents, FlowProducer, Worker) without waiting forever.
 * BullMQ's close waits for ioredis' 'end' event, and a client parked between two reconnect
 * attempts (Redis restarted a moment ago) never emits it: a fleet render that ended with
 * render-lost right after a restart hung in its clean-up. close() has by then told the client to
 * disconnect (its reconnect timer is cleared), so after the bound there is nothing left to wait
 * for: the client is disconnected once more without waiting, and the caller moves on.
 */
export async function closeWithin(closable: { close(): Promise<void>; disconnect(): Promise<void> }, ms = CLOSE_BOUND_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([closable.close().then(() => 'closed' as const), bound]);
    if (outcome === 'timeout') void closable.disconnect().catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}
