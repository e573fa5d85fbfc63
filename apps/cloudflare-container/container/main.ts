import { serve } from '@hono/node-server';
import { SERVER_RENDER_LIMITS, type RenderLimits } from '@seekframe/producer';
import { createRenderServerApp } from './render-server.js';

/**
 * Entry point of the render container (the Dockerfile's CMD) and of the local stand-in:
 *   COMPOSITION_DIR=compositions/ui-3d-reveal PORT=8080 npx tsx apps/cloudflare-container/container/main.ts
 * Settings come from the environment, which wrangler.jsonc / the Container class pass in.
 */
function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`render container: ${name}=${raw} must be a whole number of at least 1`);
    process.exit(2);
  }
  return value;
}

const limits: RenderLimits = {
  maxFrames: positive('MAX_FRAMES', SERVER_RENDER_LIMITS.maxFrames),
  maxRenderSeconds: positive('MAX_RENDER_SECONDS', SERVER_RENDER_LIMITS.maxRenderSeconds),
  maxWorkers: positive('MAX_WORKERS', SERVER_RENDER_LIMITS.maxWorkers),
  maxPixels: positive('MAX_PIXELS', SERVER_RENDER_LIMITS.maxPixels),
};
const workersSetting = process.env.RENDER_WORKERS ?? 'auto';
const server = createRenderServerApp({
  compositionDir: process.env.COMPOSITION_DIR ?? '/app/composition',
  workDir: process.env.WORK_DIR ?? '/tmp/seekframe-renders',
  maxConcurrent: positive('MAX_CONCURRENT_RENDERS', 1),
  limits,
  workers: workersSetting === 'auto' ? 'auto' : positive('RENDER_WORKERS', 1),
});
const port = positive('PORT', 8080);
const host = process.env.HOST ?? '0.0.0.0';
const listener = serve({ fetch: server.app.fetch, port, hostname: host }, (info) => {
  console.log(`render container listening on http://${host}:${info.port}`);
});

// Cloudflare stops an instance with SIGTERM: cancel running renders (their files are removed) and exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().finally(() => listener.close(() => process.exit(0)));
  });
}
