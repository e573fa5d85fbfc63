import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** Comment lines keep idle connections (long queues, a preview left open) from being cut by proxies. */
const KEEPALIVE_MS = 15_000;

export interface SseStreamOptions {
  /**
   * The Node response under the web one (Hono's `c.env.outgoing`, or the response `pipeSseToNode`
   * writes to): its closing early counts as a disconnect too.
   */
  outgoing?: ServerResponse;
  /** Fires once when the client goes away before `end()`. */
  onDisconnect?: () => void;
  /** A comment sent first (`: <text>`), so a client sees the stream open before any event. */
  greeting?: string;
  keepAliveMs?: number;
}

export interface SseStream {
  /** The `text/event-stream` response to return (Hono) or to pipe (`pipeSseToNode`). */
  readonly response: Response;
  /** One message: `event: <event>` and `data: <JSON of data>`. Ignored after the end. */
  send(event: string, data: unknown): void;
  /** Ends the stream after what was sent. */
  end(): void;
}

/**
 * Server-sent events, the one implementation the producer server (`POST /render/stream`) and
 * `seekframe preview` (live reload) share. The client going away is noticed either way it shows
 * (the socket closing, or the body being cancelled) and reported once.
 */
export function openSseStream(options: SseStreamOptions = {}): SseStream {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  let keepalive: NodeJS.Timeout | undefined;
  const stop = (): void => {
    ended = true;
    clearInterval(keepalive);
  };
  const disconnected = (): void => {
    if (ended) return;
    stop();
    options.onDisconnect?.();
  };
  const write = (text: string): void => {
    if (ended || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      disconnected();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (options.greeting) c.enqueue(encoder.encode(`: ${options.greeting}\n\n`));
      keepalive = setInterval(() => write(': keepalive\n\n'), options.keepAliveMs ?? KEEPALIVE_MS);
      keepalive.unref();
    },
    cancel: disconnected,
  });
  options.outgoing?.once('close', () => {
    if (!options.outgoing?.writableFinished) disconnected();
  });
  return {
    // text/event-stream is UTF-8 by definition; no-store so no proxy replays an old stream.
    response: new Response(body, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' },
    }),
    send(event, data) {
      write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (ended) return;
      stop();
      try {
        controller?.close();
      } catch {
        // Already closed by a disconnect.
      }
    },
  };
}

/** Writes an SSE stream to a plain Node response (servers that are not Hono, such as the preview). */
export function pipeSseToNode(stream: SseStream, res: ServerResponse): void {
  res.writeHead(stream.response.status, Object.fromEntries(stream.response.headers));
  res.flushHeaders();
  const body = Readable.fromWeb(stream.response.body as NodeReadableStream<Uint8Array>);
  body.on('error', () => res.destroy());
  body.pipe(res);
  res.once('close', () => body.destroy());
}
