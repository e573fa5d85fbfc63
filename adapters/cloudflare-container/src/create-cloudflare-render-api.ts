import { Hono } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import {
  createRenderApi,
  renderApiSettings,
  statusOf,
  workerWebhookUrlCheck,
  type CompositionSource,
  type PreviewAssets,
  type RenderApiOptions,
} from '@seekframe/render-api';
import { createContainerRunner } from './container-runner.js';
import { createDurableJobStore } from './durable-job-store.js';
import { createR2ObjectStore } from './r2-object-store.js';
import type { RenderJobEnv } from './render-job-object.js';
import { serveR2Object } from './serve-r2-object.js';

/** Bindings and vars (wrangler.jsonc): a Worker's environment. The render API's own settings are read by renderApiSettings. */
export interface CloudflareRenderEnv extends RenderJobEnv {
  RENDER_API_TOKEN?: string;
  ALLOW_CUSTOM_HTML?: string;
  RENDER_MAX_FRAMES?: string;
  RENDER_MAX_SECONDS?: string;
  RENDER_MAX_MEMORY_MB?: string;
  RENDER_RETENTION_SECONDS?: string;
  RENDER_MAX_CONCURRENT?: string;
  RENDER_WEBHOOK_SECRET?: string;
  RENDER_WEBHOOK_ALLOW_LOOPBACK?: string;
}

export interface CloudflareRenderApiOptions {
  env: CloudflareRenderEnv;
  /** The request's `ctx.waitUntil`: the job's start may outlive a `Prefer: respond-async` answer. */
  waitUntil: (promise: Promise<unknown>) => void;
  composition: CompositionSource;
  previewAssets?: PreviewAssets;
  /** The composition's files for the player, as the template's build prepared them (no node_modules in a Worker). */
  compositionFiles?: RenderApiOptions['compositionFiles'];
}

/**
 * The render API on Cloudflare: the shared contract (preview page, /api/composition, /api/render...)
 * with the Container runner, the Durable Object job store and R2, plus `GET|HEAD /r/<key>` serving
 * stored renders from R2 with Range. Cheap to build, so a Worker builds it per request (the
 * `waitUntil` belongs to the request).
 */
export function createCloudflareRenderApi(options: CloudflareRenderApiOptions): Hono {
  const { env } = options;
  // The bindings are the Worker's environment: the settings come from there, by the rule every
  // face shares (a variable set but blank or malformed is refused).
  const vars = env as unknown as Record<string, string | undefined>;
  let settings: Omit<ReturnType<typeof renderApiSettings>, 'webhookSecret' | 'webhookAllowLoopback'>;
  let webhookSecret: string | undefined;
  let webhookAllowLoopback = false;
  try {
    ({ webhookSecret, webhookAllowLoopback, ...settings } = renderApiSettings({}, stringsOnly(vars)));
  } catch (error) {
    // A Worker has no start to refuse: a bad setting (a blank RENDER_API_TOKEN) answers every
    // request with its message in the error shape, and nothing is served.
    if (!(error instanceof SeekframeError)) throw error;
    return new Hono().all('*', (c) => c.json({ error: error.toJSON() }, statusOf(error.code) as 500));
  }
  const app = new Hono();
  app.on(['GET', 'HEAD'], '/r/*', (c) => {
    let key: string;
    try {
      key = decodeURIComponent(c.req.path.slice('/r/'.length));
    } catch {
      key = '';
    }
    return serveR2Object(env.RENDERS, key, c.req.raw);
  });
  const api = createRenderApi({
    ...settings,
    // Never the Worker's process.env (nodejs_compat may fill it): the bindings, read above.
    env: {},
    runner: createContainerRunner(env.JOBS),
    // A job stops counting against RENDER_MAX_CONCURRENT at the latest when its watchdog would fire.
    jobs: createDurableJobStore(env.JOBS, { staleAfterMs: ((settings.limits?.maxRenderSeconds ?? 900) + 300) * 1000 }),
    objects: createR2ObjectStore(env.RENDERS, env.R2_PUBLIC_URL ? { publicUrl: env.R2_PUBLIC_URL } : {}),
    composition: options.composition,
    ...(options.previewAssets ? { previewAssets: options.previewAssets } : {}),
    ...(options.compositionFiles ? { compositionFiles: options.compositionFiles } : {}),
    answerMode: 'sync',
    waitUntil: options.waitUntil,
    // Checked here at POST; each job's Durable Object sends its events (it sees the whole life
    // cycle and outlives this request), so no sender is given to the shared API.
    ...(webhookSecret
      ? { webhooks: { secret: webhookSecret, checkUrl: workerWebhookUrlCheck({ allowLoopback: webhookAllowLoopback }) } }
      : {}),
  });
  // Everything else is the render API, answered by its own app so its 404 and error shapes apply.
  app.all('*', (c) => api.fetch(c.req.raw));
  return app;
}

/** The bindings that are variables (strings); R2 buckets, Durable Objects and Fetchers are not settings. */
function stringsOnly(bindings: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(bindings).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}
