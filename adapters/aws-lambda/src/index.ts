export {
  planLambdaChunks,
  lambdaChunking,
  MAP_MAX_CONCURRENCY,
  DEFAULT_ACCOUNT_CONCURRENCY,
  type LambdaChunkPlanInput,
} from './chunks/plan-lambda-chunks.js';
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
export { RENDERS_PREFIX, SHORT_LIVED_SUFFIXES } from './storage/layout.js';
// The S3 store lives in @seekframe/s3-storage (a fleet uses it too); named here for Lambda users.
export { createS3ObjectStore, type S3StoreOptions } from '@seekframe/s3-storage';
export { runLocalRender, type LocalRenderOptions } from './local/run-local-render.js';
export type { LambdaStore } from './storage/lambda-store.js';
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
export * from './handlers/index.js';
export * from './client/index.js';
