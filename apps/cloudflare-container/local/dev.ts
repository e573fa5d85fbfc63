import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { SERVER_RENDER_LIMITS } from '@seekframe/producer';
import { renderApiSettings } from '@seekframe/render-api';
import { resolveCompositionDir } from '../scripts/build.mjs';
import { createRenderServerApp } from '../container/render-server.js';
import { startLocalWorker } from './local-worker.js';

/**
 * One command for a laptop without Docker (`npm run dev` in apps/cloudflare-container):
 * the container's render server on 127.0.0.1:CONTAINER_PORT (default 8788) and the Worker in the
 * real Workers runtime on 127.0.0.1:PORT (default 8787), with R2 and Durable Object state kept in
 * .wrangler/seekframe-local. PREVIEW_COMPOSITION_DIR picks the composition, as for a deploy.
 * Vars such as RENDER_API_TOKEN or ALLOW_CUSTOM_HTML are passed on from the environment.
 */
const APP_DIR = new URL('..', import.meta.url).pathname;
const compositionDir = resolveCompositionDir();
const port = Number(process.env.PORT ?? 8787);
const containerPort = Number(process.env.CONTAINER_PORT ?? 8788);
// The Worker reads these from its bindings by the render API's rule; checked here first, so a
// bad one stops `npm run dev` before anything starts.
const slots = renderApiSettings().maxConcurrentRenders ?? 2;

const workDir = join(APP_DIR, '.wrangler/seekframe-local/renders');
await mkdir(workDir, { recursive: true });
const container = createRenderServerApp({ compositionDir, workDir, maxConcurrent: slots, limits: SERVER_RENDER_LIMITS, workers: 'auto' });
const listener = serve({ fetch: container.app.fetch, port: containerPort, hostname: '127.0.0.1' });
const containerUrl = `http://127.0.0.1:${containerPort}`;

const vars: Record<string, string> = { RENDER_MAX_CONCURRENT: String(slots) };
for (const name of [
  'RENDER_API_TOKEN',
  'ALLOW_CUSTOM_HTML',
  'RENDER_MAX_FRAMES',
  'RENDER_MAX_SECONDS',
  'RENDER_MAX_MEMORY_MB',
  'RENDER_RETENTION_SECONDS',
  'RENDER_WEBHOOK_SECRET',
  'RENDER_WEBHOOK_ALLOW_LOOPBACK',
]) {
  // Passed whenever set, blank included: the Worker refuses a blank RENDER_API_TOKEN rather than run open.
  if (process.env[name] !== undefined) vars[name] = process.env[name]!;
}
const worker = await startLocalWorker({
  compositionDir,
  containerUrl,
  vars,
  port,
  stateDir: join(APP_DIR, '.wrangler/seekframe-local/state'),
});
console.log(`Seekframe on Cloudflare, local mode: ${worker.url}/  (composition ${compositionDir})`);
console.log(`  renders run on the container server at ${containerUrl} (${slots} at once); Ctrl-C stops both`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([worker.stop(), container.close()]).finally(() => listener.close(() => process.exit(0)));
  });
}
