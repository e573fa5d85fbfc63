/**
 * `@seekframe/producer/distributed`: the chunk core every fleet shares (Lambda's handlers, the
 * Redis fleet's worker and submitter). Plan once, render frame ranges into segments on any
 * machine, assemble them seam-exact; storage is the one StoragePort (with `list`), invocation is
 * whatever the platform has (Step Functions, a BullMQ flow, a loop in a test).
 */
export { planChunks, type FrameChunk, type ChunkPlan, type ChunkPlanInput } from './plan-chunks.js';
export { renderKeys, chunkName, newRenderId, isRenderId, RENDERS_PREFIX, type RenderKeys } from './render-keys.js';
export { getJson, putJson, listKeys, type DistributedStore } from './distributed-store.js';
export type { RenderCore, PlanFacts, CoreContext, CoreEvent } from './render-core.js';
export { producerCore } from './producer-core.js';
export { systemRuntime, type RenderRuntime } from './render-runtime.js';
export type { DistributedDeps, StoredPlan } from './distributed-deps.js';
export { distributedSpecInput, type DistributedRequest } from './distributed-spec.js';
export { checkChunkRuntime, type RuntimeFixes } from './check-chunk-runtime.js';
export { classifyFailure, FATAL_CODES, type FailureKind, type Classified } from './classify-failure.js';
export { packProject, extractProject } from './project-archive.js';
export { renderWorkFolder } from './work-folder.js';
export { distributedError } from './distributed-error.js';
export { planStep, type PlanStepInput } from './plan-step.js';
export { chunkStep, loadPlan, type ChunkStepInput, type ChunkStepOptions, type ChunkStepResult } from './chunk-step.js';
export { assembleStep, type AssembleStepInput, type AssembledOutput } from './assemble-step.js';
