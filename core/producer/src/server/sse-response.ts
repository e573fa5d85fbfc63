import type { ServerResponse } from 'node:http';
import type { ProducerServerEvent } from './server-events.js';

/** Comment lines keep idle connections (long queues) from being cut by proxies. */
const KEEPALIVE_MS = 15_000;

export interface SseChannel {
  response: Response;
  send(event: ProducerServerEvent): void;
  /** Ends the stream after what was sent. */
  end(): void;
}

/**
 * A `text/event-stream` response, one message per event (`event: <type>`, `data: <json>`).
 * `onDisconnect` fires once if the client goes away before `end()`; either signal counts (the
 * socket closing, or the adapter cancelling the body), so no disconnect goes unnoticed.
 */
export function openSse(outgoing: ServerResponse | undefined, onDisconnect: () => void): SseChannel {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  let keepalive: NodeJS.Timeout | undefined;
  const disconnected = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    onDisconnect();
  };
  const write = (text: string): void => {
    if (ended || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      disconnected();
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
    },
    cancel: disconnected,
  });
  outgoing?.once('close', () => {
    if (!outgoing.writableFinished) disconnected();
  });
  return {
    response: new Response(stream, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' },
    }),
    send(event) {
      write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(keepalive);
      try {
        controller?.close();
      } catch {
        // Already closed by a disconnect.
      }
    },
  };
}
