export {
  planChunks,
  MAP_MAX_CONCURRENCY,
  DEFAULT_ACCOUNT_CONCURRENCY,
  type FrameChunk,
  type ChunkPlan,
  type ChunkPlanInput,
} from './chunks/plan-chunks.js';
export {
  RETRY_TABLE,
  RETRY_ORDER,
  FATAL_CODES,
  classifyFailure,
  kindOfErrorName,
  retryDelayMs,
  failureData,
  LambdaFailure,
  type FailureKind,
  type RetryRule,
} from './retry/retry-table.js';
export { renderKeys, newRenderId, isRenderId, RENDERS_PREFIX, SHORT_LIVED_SUFFIXES } from './storage/layout.js';
export { createS3ObjectStore } from './storage/s3-object-store.js';
export { runLocalRender, type LocalRenderOptions } from './local/run-local-render.js';
export { getJson, putJson, listKeys, type LambdaStore } from './storage/lambda-store.js';
export type { S3StoreOptions } from './storage/s3-object-store.js';
export { aggregateProgress, type DistributedProgress, type DistributedStage } from './progress/aggregate-progress.js';
export {
  estimateCost,
  countTransitions,
  gbSeconds,
  pricingForRegion,
  DEFAULT_PRICING,
  PRICE_TABLE,
  FALLBACK_REGION,
  type CostEstimate,
  type FunctionCost,
  type Pricing,
  type RenderFunction,
  type BilledInvocation,
} from './progress/cost.js';
export type * from './progress/progress-records.js';
export { runLocalPipeline, type StepInvokers, type LocalPipelineOptions } from './orchestration/local-pipeline.js';
export { buildRenderWorkflow, retriersFromTable, aslBlocks, toStateMachineDefinition } from './orchestration/index.js';
export {
  createLambdaApiApp,
  startLambdaRender,
  type LambdaApiOptions,
  type StartedRender,
} from './api/lambda-render-api.js';
export { createLambdaRunner, type LambdaRunnerOptions } from './api/lambda-runner.js';
export { createObjectJobStore, idempotentRenderId } from './api/object-job-store.js';
export { LambdaProgressFieldsSchema, type LambdaProgressFields } from './api/lambda-progress-fields.js';
export { pendingWork } from './api/pending-work.js';
export { handleApiInvoke, isApiInvokeEvent, type ApiInvokeEvent } from './api/api-invoke.js';
export { readRenderProgress, type ProgressReader } from './api/render-progress.js';
export { systemRuntime, type RenderRuntime } from './runtime/lambda-runtime.js';
export { packProject, extractProject } from './project/project-archive.js';
export { loadProducerCore } from './producer-core.js';
export type { RenderCore, PlanFacts, CoreContext } from './render-core.js';
export * from './handlers/index.js';
export * from './client/index.js';
