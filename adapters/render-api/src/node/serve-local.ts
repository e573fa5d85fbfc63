import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { SeekframeError } from '@seekframe/composition';
import { answerClientErrors, createLocalFolderStorage } from '@seekframe/producer';
import { createRenderApi } from '../create-render-api.js';
import { expireRenders } from '../expire-renders.js';
import { createMemoryJobStore } from '../memory-job-store.js';
import type { ObjectStore, RenderRunner } from '../ports.js';
import type { RenderApiOptions } from '../render-api-options.js';
import { renderApiSettings, settingsGivenIn } from '../render-api-settings.js';
import { nodeCompositionFiles } from './composition-files.js';
import { folderSource } from './folder-source.js';
import { assertCliCommand, createLocalRunner, type LocalRunnerOptions } from './create-local-runner.js';
import { nodePreviewAssets } from './preview-assets.js';
import { nodeWebhooks } from './node-webhooks.js';

/** A runner `serveRenderApi` can stop at close (every runner of this package's node entry and the fleet's). */
export type ClosableRunner = RenderRunner & { cancelAll(): Promise<void> };

export interface ServeRenderApiOptions extends Omit<ServeLocalOptions, 'runner'> {
  /** Makes the runner once the object store and the concurrency are known. */
  runner: (setup: { objects: ObjectStore; maxConcurrentRenders: number }) => ClosableRunner;
}

export interface ServeLocalOptions extends Partial<Omit<RenderApiOptions, 'runner' | 'composition' | 'objects' | 'env'>> {
  /** The composition folder to preview and render (its index.html). */
  compositionDir: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where finished files go; default a new temp folder, removed by close(). */
  dataDir?: string;
  /** Default: the core's local-folder storage on dataDir. */
  objects?: ObjectStore;
  /** Passed to the local runner: `cli` (required: how to start the Seekframe CLI), workers, browserGpu, env... */
  runner: Omit<LocalRunnerOptions, 'compositionDir' | 'objects'>;
  /**
   * Where RENDER_API_TOKEN, ALLOW_CUSTOM_HTML, RENDER_MAX_*, RENDER_RETENTION_SECONDS and
   * RENDER_WEBHOOK_* are read from: default `process.env`. An option given here wins over its
   * variable; a variable set but unusable (blank, malformed) refuses the start. `{}` reads none.
   */
  env?: Record<string, string | undefined>;
}

export interface LocalRenderApi {
  url: string;
  port: number;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A template on a laptop in one call: the render API with the local-process runner, an
 * in-memory job store and a folder as the object store, on 127.0.0.1.
 */
export async function serveLocal(options: ServeLocalOptions): Promise<LocalRenderApi> {
  // Before the temp folder is made, so a missing CLI leaves nothing behind.
  assertCliCommand(options.runner?.cli, 'runner.cli');
  const runnerOptions = options.runner;
  return serveRenderApi({
    ...options,
    runner: ({ objects, maxConcurrentRenders }) =>
      createLocalRunner({
        ...runnerOptions,
        compositionDir: options.compositionDir,
        objects,
        maxConcurrent: runnerOptions.maxConcurrent ?? maxConcurrentRenders,
      }),
  });
}

/**
 * The render API on this machine with any runner (the local runner for serveLocal, the fleet's
 * queue runner for `seekframe serve --queue`): an in-memory job store, a folder as the object
 * store unless one is given, settings from the environment, the retention sweep, on 127.0.0.1.
 */
export async function serveRenderApi(options: ServeRenderApiOptions): Promise<LocalRenderApi> {
  // Read before anything is made, so a bad setting refuses the start with nothing left behind.
  const env = options.env ?? process.env;
  const settings = renderApiSettings(settingsGivenIn(options), env);
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'seekframe-render-api-')));
  // The core's local-folder storage is this API's object store as it is (same five verbs).
  const objects = options.objects ?? createLocalFolderStorage({ root: dataDir });
  const { webhookSecret, webhookAllowLoopback } = settings;
  const webhooks = options.webhooks ?? nodeWebhooks({ ...(webhookSecret ? { webhookSecret } : {}), webhookAllowLoopback });
  const maxConcurrentRenders = settings.maxConcurrentRenders ?? 2;
  const runner = options.runner({ objects, maxConcurrentRenders });
  const {
    compositionDir: _dir,
    port: _port,
    host: _host,
    dataDir: _data,
    runner: _runner,
    env: _env,
    objects: _objects,
    ...apiOptions
  } = options;
  const app = createRenderApi({
    previewAssets: nodePreviewAssets(),
    jobs: createMemoryJobStore(),
    answerMode: 'sync',
    ...apiOptions,
    // The same environment: createRenderApi reads it by the same rule (options given win).
    env,
    maxConcurrentRenders,
    ...(webhooks ? { webhooks } : {}),
    runner,
    objects,
    composition: folderSource(options.compositionDir),
    compositionFiles: options.compositionFiles ?? nodeCompositionFiles(options.compositionDir),
  });
  const host = options.host ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () => resolve(started));
    started.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SeekframeError(
          'server-listen-failed',
          `Could not listen on ${host}:${options.port ?? 0} (${error.code ?? error.message}); pick another port.`,
          { stage: 'config', cause: error },
        ),
      ),
    );
  });
  // Node would answer a 70 KB URL or 64 KiB of headers with an empty 431 and often a reset: JSON
  // 414/431 like every other error instead.
  answerClientErrors(server);
  const { port } = server.address() as AddressInfo;
  // Renders past retention leave the folder on a timer too, not only when asked for: the job
  // store is in memory, so files of a previous run are found by their age (swept at start).
  const retentionMs = (settings.retentionSeconds ?? 24 * 3600) * 1000;
  const sweep = (): void => void expireRenders(objects, retentionMs, Date.now()).catch(() => undefined);
  sweep();
  const sweeper = setInterval(sweep, Math.max(1000, Math.min(retentionMs / 2, 60_000)));
  sweeper.unref();
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    dataDir,
    async close() {
      clearInterval(sweeper);
      await runner.cancelAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      // A temp folder serveLocal made itself goes with it; a given dataDir is the caller's.
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
