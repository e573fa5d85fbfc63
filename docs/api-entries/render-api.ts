/**
 * The `/api/render` contract every deploy template serves, as a Hono app you mount yourself
 * (`createRenderApi`), or served on a port with the local runner (`serveLocal`, Node only,
 * from `@seekframe/render-api/node`). Runners and stores are small ports; the Vercel, Cloudflare
 * and Lambda adapters fill them.
 *
 * ```ts
 * import { serveLocal } from '@seekframe/render-api/node';
 * import { seekframeBin } from 'seekframe/bin-path';
 * await serveLocal({ compositionDir: './my-video', runner: { cli: { command: process.execPath, args: [seekframeBin] } } });
 * ```
 * @module The render API
 */
export {
  createRenderApi,
  createMemoryJobStore,
  type RenderApiOptions,
  type RenderRunner,
  type JobStore,
  type RenderJob,
  type JobStatus,
  type JobProgress,
} from '@seekframe/render-api';
export {
  serveLocal,
  createLocalRunner,
  type ServeLocalOptions,
  type LocalRenderApi,
  type LocalRunnerOptions,
} from '@seekframe/render-api/node';
