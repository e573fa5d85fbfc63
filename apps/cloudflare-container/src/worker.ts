import { Hono } from 'hono';
import { createRenderApi, renderApiSettingsFromEnv } from '@seekframe/render-api';
import { createContainerRunner, createDurableJobStore, createR2ObjectStore, serveR2Object, type RenderJobEnv } from '@seekframe/cloudflare-container';
import { composition, preview } from 'seekframe:bundled-assets';
import { bundledFileSource } from './bundled-files.js';

export { RenderJobObject } from '@seekframe/cloudflare-container';
export { Renderer } from './renderer-container.js';

/** Bindings and vars (wrangler.jsonc); the render API's settings are read by renderApiSettingsFromEnv. */
export interface Env extends RenderJobEnv {
  RENDER_API_TOKEN?: string;
  ALLOW_CUSTOM_HTML?: string;
  RENDER_MAX_FRAMES?: string;
  RENDER_MAX_SECONDS?: string;
  RENDER_RETENTION_SECONDS?: string;
  RENDER_MAX_CONCURRENT?: string;
}

const compositionSource = bundledFileSource(composition);
const previewAssets = bundledFileSource(preview);

/**
 * The Worker: the shared render API (preview page, /api/composition, /api/render...) with the
 * Cloudflare runner and stores, plus `GET /r/<key>` serving stored renders from R2 with Range.
 * Built per request because `waitUntil` belongs to the request's context.
 */
export function createWorkerApp(env: Env, ctx: ExecutionContext): Hono {
  const settings = renderApiSettingsFromEnv(env as unknown as Record<string, string | undefined>);
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
    runner: createContainerRunner(env.JOBS),
    // A job stops counting against RENDER_MAX_CONCURRENT at the latest when its watchdog would fire.
    jobs: createDurableJobStore(env.JOBS, { staleAfterMs: ((settings.limits?.maxRenderSeconds ?? 900) + 300) * 1000 }),
    objects: createR2ObjectStore(env.RENDERS, env.R2_PUBLIC_URL ? { publicUrl: env.R2_PUBLIC_URL } : {}),
    composition: compositionSource,
    previewAssets,
    answerMode: 'sync',
    waitUntil: (promise) => ctx.waitUntil(promise),
  });
  // Everything else is the render API, answered by its own app so its 404 and error shapes apply.
  app.all('*', (c) => api.fetch(c.req.raw));
  return app;
}

export default {
  fetch(request, env, ctx) {
    return createWorkerApp(env, ctx).fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
