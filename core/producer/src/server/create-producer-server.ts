import type { AddressInfo } from 'node:net';
import { answerClientErrors } from './client-error-response.js';
import { serve, type ServerType } from '@hono/node-server';
import { SeekframeError } from '@seekframe/composition';
import { createBrowserPool, findBrowser, type BrowserInfo, type BrowserPoolStats } from '@seekframe/engine';
import { OutputStore } from './output-store.js';
import { createProducerApp } from './producer-app.js';
import type { QueueStatus } from '../jobs/render-queue.js';
import { createRenderJobs } from '../jobs/render-jobs.js';
import { createServerRenderRunner } from './run-render-job.js';
import { createPathScrubber } from './client-safe-error.js';
import { resolveServerConfig, type ProducerServerConfig, type ProducerServerOptionsInput } from './server-options.js';

export interface ProducerServer {
  /** `http://<host>:<port>` */
  readonly url: string;
  readonly port: number;
  readonly config: ProducerServerConfig;
  status(): QueueStatus;
  /** The warm browser pool (what GET /health reports as `browserPool`); null when warmBrowsers is 0. */
  browserPool(): BrowserPoolStats | null;
  /**
   * Stops accepting requests, cancels the waiting, lets running renders finish for up to
   * `graceMs` (default 0) and cancels the rest (their partial outputs are removed), then closes.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const SHUTDOWN_REASON = 'the server is shutting down';

/** findBrowser once per server (it asks the binary its version: ~50 ms a render); a failed lookup is retried by the next render. */
function oneBrowserLookup(): () => Promise<BrowserInfo> {
  let found: Promise<BrowserInfo> | undefined;
  return () => {
    found ??= findBrowser();
    found.catch(() => {
      found = undefined;
    });
    return found;
  };
}

/**
 * The producer HTTP server (Hono on @hono/node-server) on the render job service: FIFO queue,
 * SSE progress, polling, outputs in the storage port's local folder.
 */
export async function createProducerServer(input: ProducerServerOptionsInput = {}): Promise<ProducerServer> {
  const config = resolveServerConfig(input);
  const outputs = new OutputStore(config.outputsDir);
  await outputs.prepare();
  const browsers =
    config.warmBrowsers > 0
      ? createBrowserPool({ maxBrowsers: config.warmBrowsers, idleCloseMs: config.browserIdleSeconds * 1000 })
      : undefined;
  const jobs = createRenderJobs({
    run: createServerRenderRunner(outputs, {
      limits: config.limits,
      pageTimeoutMs: config.pageTimeoutMs,
      browsers,
      browser: oneBrowserLookup(),
    }),
    maxConcurrent: config.maxConcurrentRenders,
    maxQueued: config.maxQueuedRenders,
    retainMs: config.jobRetentionSeconds * 1000,
  });
  const scrub = createPathScrubber({ root: config.root, outputsDir: config.outputsDir });
  let closing = false;

  const browserPool = (): BrowserPoolStats | null => browsers?.stats() ?? null;
  const app = createProducerApp(config, outputs, { jobs, isClosing: () => closing, browserPool }, scrub);
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(started));
    started.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new SeekframeError(
          'server-listen-failed',
          `Could not listen on ${config.host}:${config.port} (${error.code ?? error.message}); pick another --port or --host.`,
          {
            stage: 'config',
            details: { host: config.host, port: config.port },
            cause: error,
          },
        ),
      );
    });
  });
  // Node answers oversized request lines/headers itself with an empty body; ours get JSON like every other error.
  answerClientErrors(server);
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  let closed: Promise<void> | undefined;
  const close = async (graceMs: number): Promise<void> => {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    await jobs.shutdown({ reason: SHUTDOWN_REASON, graceMs });
    await browsers?.close();
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
    status: () => jobs.status(),
    browserPool,
    close(options = {}) {
      closed ??= close(options.graceMs ?? 0);
      return closed;
    },
  };
}
