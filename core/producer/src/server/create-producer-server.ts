import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerClientError } from './client-error-response.js';
import { serve, type ServerType } from '@hono/node-server';
import { SeekframeError } from '@seekframe/composition';
import { OutputStore } from './output-store.js';
import { createProducerApp, type RenderDispatcher } from './producer-app.js';
import { RenderQueue, type QueueStatus } from '../jobs/render-queue.js';
import { runRenderJob } from './run-render-job.js';
import { createPathScrubber, scrubEvent } from './client-safe-error.js';
import { resolveServerConfig, type ProducerServerConfig, type ProducerServerOptionsInput } from './server-options.js';
import type { FinalServerEvent, ProducerServerEvent } from './server-events.js';

export interface ProducerServer {
  /** `http://<host>:<port>` */
  readonly url: string;
  readonly port: number;
  readonly config: ProducerServerConfig;
  status(): QueueStatus;
  /**
   * Stops accepting requests, cancels the waiting, lets running renders finish for up to
   * `graceMs` (default 0) and cancels the rest (their partial outputs are removed), then closes.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const SHUTDOWN_REASON = 'the server is shutting down';

/** The producer HTTP server (Hono on @hono/node-server): FIFO render queue, SSE progress, outputs. */
export async function createProducerServer(input: ProducerServerOptionsInput = {}): Promise<ProducerServer> {
  const config = resolveServerConfig(input);
  const outputs = new OutputStore(config.outputsDir);
  await outputs.prepare();
  const queue = new RenderQueue(config.maxConcurrentRenders);
  const scrub = createPathScrubber({ root: config.root, outputsDir: config.outputsDir });
  const running = new Map<string, AbortController>();
  const waiting = new Map<string, (reason: string) => void>();
  let closing = false;

  const dispatcher: RenderDispatcher = {
    status: () => queue.status(),
    isClosing: () => closing,
    submit(request, emitRaw) {
      // The one place events leave a render for a client: no absolute server path gets through.
      const emit = (event: ProducerServerEvent): void => emitRaw(scrubEvent(event, scrub));
      const requestId = randomUUID();
      const controller = new AbortController();
      let settle!: (event: FinalServerEvent) => void;
      const done = new Promise<FinalServerEvent>((resolve) => {
        settle = (event) => resolve(scrubEvent(event, scrub));
      });
      const ticket = queue.enqueue(
        requestId,
        async () => {
          waiting.delete(requestId);
          running.set(requestId, controller);
          try {
            settle(await runRenderJob({ requestId, request, signal: controller.signal, emit, settings: { limits: config.limits, pageTimeoutMs: config.pageTimeoutMs } }, outputs));
          } finally {
            running.delete(requestId);
          }
        },
        (position) => emit({ type: 'queued', requestId, position }),
      );
      const cancel = (reason: string): void => {
        if (ticket.leave()) {
          waiting.delete(requestId);
          const event = { type: 'cancelled' as const, requestId, reason };
          emit(event);
          settle(event);
        } else if (!controller.signal.aborted) {
          controller.abort(new Error(reason));
        }
      };
      if (ticket.position > 0) {
        waiting.set(requestId, cancel);
        emit({ type: 'queued', requestId, position: ticket.position });
      }
      return { requestId, cancel, done };
    },
  };

  const app = createProducerApp(config, outputs, dispatcher, scrub);
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(started));
    started.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new SeekframeError('server-listen-failed', `Could not listen on ${config.host}:${config.port} (${error.code ?? error.message}); pick another --port or --host.`, {
          stage: 'config',
          details: { host: config.host, port: config.port },
          cause: error,
        }),
      );
    });
  });
  // Node answers oversized request lines/headers itself with an empty body; ours get JSON like every other error.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => answerClientError(error, socket));
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  let closed: Promise<void> | undefined;
  const close = async (graceMs: number): Promise<void> => {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const cancel of [...waiting.values()]) cancel(SHUTDOWN_REASON);
    if (graceMs > 0) await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    for (const controller of running.values()) controller.abort(new Error(SHUTDOWN_REASON));
    await queue.idle();
    // Final events are written; give clients a moment to read them, then drop what is left.
    (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await stopped;
  };

  return {
    url: `http://${host}:${port}`,
    port,
    config,
    status: () => queue.status(),
    close(options = {}) {
      closed ??= close(options.graceMs ?? 0);
      return closed;
    },
  };
}
