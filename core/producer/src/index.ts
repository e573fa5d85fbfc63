export { renderComposition } from './render/render-composition.js';
export {
  RenderOptionsSchema,
  FpsSchema,
  OUTPUT_FORMATS,
  FORMAT_EXTENSIONS,
  defaultOutputPath,
  formatFromOutput,
  type RenderOptions,
  type RenderOptionsInput,
  type OutputFormat,
  type Fps,
} from './plan/render-options.js';
export { parseRenderOptions, invalidOptionsError } from './plan/parse-render-options.js';
export { RenderLimitsSchema, SERVER_RENDER_LIMITS, RENDER_LIMIT_SETTINGS, checkRenderLimits, type RenderLimits, type RenderLimitName } from './plan/render-limits.js';
export type { RenderEvent, RenderEventListener, RenderResult, RenderStage } from './render/render-events.js';
export { createProjectServer, type ProjectServer, type ProjectServerOptions, type PrepareHtml } from './serve/project-server.js';
export { createRuntimeInjector, type RuntimeInjectorOptions } from './serve/create-runtime-injector.js';
export { loadRuntimeSource } from './serve/load-runtime-source.js';
export { resolveCdnUrl, parseCdnUrl, type CdnReference } from './serve/resolve-cdn-url.js';
export { frameCount, frameTime } from './plan/frame-timing.js';
export { createProducerServer, type ProducerServer } from './server/create-producer-server.js';
export { resolveServerConfig, ProducerServerOptionsSchema, DEFAULT_PORT, DEFAULT_MAX_CONCURRENT_RENDERS, type ProducerServerOptionsInput, type ProducerServerConfig } from './server/server-options.js';
export { RenderRequestSchema, type RenderRequest } from './server/render-request.js';
export type { ProducerServerEvent } from './server/server-events.js';
export type { QueueStatus } from './jobs/render-queue.js';
export type { BatchEvent, BatchEventListener, BatchCounts, BatchRowStatus, RowRenderEvent } from './render/render-events.js';
export * from './batch/index.js';
export { measureRender, type RenderMeasurement } from './render/measure-render.js';
