export { renderComposition } from './render/render-composition.js';
export { renderStills, type StillsResult } from './render/render-stills.js';
export {
  StillOptionsSchema,
  parseStillOptions,
  stillOutputs,
  STILLS_MAX,
  type StillOptions,
  type StillOptionsInput,
  type StillAt,
} from './plan/still-options.js';
export { RenderSpecSchema, parseRenderSpec, type RenderSpec, type RenderSpecInput } from './plan/render-spec.js';
export {
  planHash,
  canonicalJson,
  type RenderPlan,
  type RenderVersions,
  type PlannedClip,
  type PlannedAudioTrack,
} from './plan/render-plan.js';
export { planRender, RENDER_SEED } from './render/plan-render.js';
export { renderFrames, checkSplittable, type FrameRange, type RenderTarget, type RenderFramesResult } from './render/render-frames.js';
export { mixPlanAudio } from './render/mix-plan-audio.js';
export { assembleSegments } from './render/assemble-segments.js';
export type { RenderContext, ProjectRenderContext } from './render/render-context.js';
export { ProblemLog } from './serve/problem-log.js';
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
export {
  RenderLimitsSchema,
  SERVER_RENDER_LIMITS,
  RENDER_LIMIT_SETTINGS,
  DEFAULT_MEMORY_PER_BROWSER_MB,
  checkRenderLimits,
  type RenderLimits,
  type RenderLimitName,
  type ServerRenderLimits,
} from './plan/render-limits.js';
export type { RenderCaptions, RenderEvent, RenderEventListener, RenderResult, RenderStage, RenderStill } from './render/render-events.js';
export { createProjectServer, type ProjectServer, type ProjectServerOptions, type PrepareHtml } from './serve/project-server.js';
export { createRuntimeInjector, type RuntimeInjectorOptions } from './serve/create-runtime-injector.js';
export { loadRuntimeSource } from './serve/load-runtime-source.js';
export { serveFile } from './serve/serve-file.js';
export { resolvePackageAsset, readPackageAsset, type PackageAssetOptions } from './assets/resolve-package-asset.js';
export { resolveCdnUrl, parseCdnUrl, type CdnReference } from './serve/resolve-cdn-url.js';
export { isNpmPackageName } from './serve/npm-package-name.js';
export { inside, insideLexically } from './serve/inside.js';
export { answerClientErrors } from './server/client-error-response.js';
export { frameCount, frameTime } from './plan/frame-timing.js';
export { createProducerServer, type ProducerServer } from './server/create-producer-server.js';
export {
  resolveServerConfig,
  resolveLimits as resolveHostLimits,
  ProducerServerOptionsSchema,
  DEFAULT_PORT,
  DEFAULT_MAX_CONCURRENT_RENDERS,
  DEFAULT_MAX_QUEUED_RENDERS,
  DEFAULT_JOB_RETENTION_SECONDS,
  type ProducerServerOptionsInput,
  type ProducerServerConfig,
} from './server/server-options.js';
export { RenderRequestSchema, type RenderRequest } from './server/render-request.js';
export type { ProducerServerEvent } from './server/server-events.js';
export type { QueueStatus } from './jobs/render-queue.js';
export { createRenderJobs, type RenderJobs, type RenderJobsOptions } from './jobs/render-jobs.js';
export {
  isFinishedStatus,
  type JobStatus,
  type JobSnapshot,
  type JobEvent,
  type JobListener,
  type JobRunner,
  type JobRunContext,
  type JobRenderEvent,
} from './jobs/render-job.js';
export * from './storage/index.js';
export { openSseStream, pipeSseToNode, type SseStream, type SseStreamOptions } from './server/sse-stream.js';
export type { BatchEvent, BatchEventListener, BatchCounts, BatchRowStatus, RowRenderEvent } from './render/render-events.js';
export * from './batch/index.js';
export { measureRender, type RenderMeasurement } from './render/measure-render.js';
export { RenderProfile, REPORT_STAGES, type ReportStage, type CaptureProfile, type Choice } from './report/render-profile.js';
export { RenderReportSchema, buildRenderReport, type RenderReport } from './report/render-report.js';
export { analyseFrameCosts, type Hotspot, type SlowFrame, type FrameCostAnalysis } from './report/frame-hotspots.js';
export { AlphaWatch, type AlphaVerdict, type AlphaSample } from './render/output-alpha.js';
export { checkComposition, DEFAULT_MAX_SAMPLES, type CheckInput } from './check/check-composition.js';
export { CHECK_RULES, ruleOf, type CheckRule, type CheckRuleCode } from './check/check-rules.js';
export { DEFAULT_LOUDNESS_TARGET } from './check/audio-audit.js';
export {
  CheckReportSchema,
  CheckFindingSchema,
  CHECKS,
  type CheckReport,
  type CheckFinding,
  type CheckName,
} from './check/check-report.js';
// Signed render webhooks: the Worker-safe part is also `@seekframe/producer/webhooks`; the Node
// sender and URL check keep to public addresses with the same rule as remote media.
export * from './webhooks/index.js';
export { createPublicWebhookSender, checkWebhookUrl, type WebhookAddressPolicy } from './webhooks/public-webhook-sender.js';
export {
  AddressRefusedError,
  isPrivateAddress,
  isLoopbackAddress,
  isUnspecifiedAddress,
  localhostAddresses,
  refusedAddressKind,
  type RefusedAddressKind,
} from './network/private-address.js';
