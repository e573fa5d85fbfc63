export { planHandler, type PlanEvent } from './plan-handler.js';
export { renderChunkHandler, type RenderChunkEvent, type ChunkRunOptions } from './render-chunk-handler.js';
export { assembleHandler, type AssembleEvent } from './assemble-handler.js';
export { failHandler, type FailEvent } from './fail-handler.js';
export type { HandlerDeps, StoredPlan, PlanOutput, ChunkOutput, AssembleOutput } from './handler-deps.js';
