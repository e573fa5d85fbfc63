// Platform-neutral entry: no `node:` import anywhere in this graph (it loads in a Worker).
export { createRenderApi } from './create-render-api.js';
export {
  createJobService,
  type JobLifecycleEvent,
  type JobRequestContext,
  type JobService,
  type JobServiceOptions,
  type StartJobInput,
} from './job-service.js';
export { RenderBodySchema, parseRenderBody, type RenderBody } from './parse-render-body.js';
export {
  processEnv,
  renderApiSettings,
  renderApiSettingsFromEnv,
  type RenderApiSettings,
  type RenderApiSettingsOverrides,
} from './render-api-settings.js';
export {
  DEFAULT_LIMITS,
  type AnswerMode,
  type RenderApiLimits,
  type RenderApiOptions,
  type RenderApiWebhooks,
  type WebhookSettings,
} from './render-api-options.js';
export type {
  ByteRange,
  CompositionSource,
  FileSource,
  JobStore,
  ObjectBody,
  ObjectInfo,
  ObjectStore,
  PreviewAssets,
  RenderRunner,
  RunnerContext,
  RunnerEvent,
  RunnerJob,
  RunnerOutcome,
} from './ports.js';
export {
  RENDER_FORMATS,
  RENDER_QUALITIES,
  JOB_STATUSES,
  JOB_STAGES,
  JobProgressSchema,
  RenderJobResultSchema,
  isFinished,
  mergeJobUpdate,
  type JobProgress,
  type JobStage,
  type JobStatus,
  type JobUpdate,
  type RenderFormat,
  type RenderJob,
  type RenderJobRequest,
  type RenderJobResult,
  type RenderQuality,
  jobOutput,
  stillFlags,
} from './render-job.js';
export { compositionInfo, CompositionInfoSchema, type CompositionInfo } from './load-composition.js';
export { createMemoryJobStore } from './memory-job-store.js';
export { parseRunnerEvent } from './parse-runner-event.js';
export { PREVIEW_COMPOSITION_BASE, PREVIEW_CSP } from './preview-routes.js';
export { statusOf } from './api-error.js';
export { renderApiDocument, OPENAPI_PATH, type RenderApiDocumentOptions } from './openapi-document.js';
export {
  RenderAcceptedSchema,
  RenderFinishedSchema,
  RenderCallIdSchema,
  RenderCancelledSchema,
  CompletedJobSchema,
  type RenderAccepted,
  type RenderFinished,
  type RenderCallId,
  type RenderCancelled,
  type CompletedJob,
} from './render-answers.js';
export { checkRenderRequest, type CheckedRenderRequest } from './check-render-request.js';
export { compositionLoader } from './load-composition.js';
export { compositionPreflight, preflightComposition, sourcePreflightHost, inlinePreflightHost } from './preflight-composition.js';
export { expireRenders } from './expire-renders.js';
export { jobWebhookListener, notifyJobUpdate, type JobWebhookListener } from './job-webhooks.js';
export { createFetchWebhookSender } from '@seekframe/producer/webhooks';
export { isServerNetworkHost, workerWebhookUrlCheck } from './server-network-host.js';
