export { queueSettings, DEFAULT_QUEUE_NAME, type QueueSettings, type QueueSettingsInput } from './queue-settings.js';
export { fleetStore, type FleetStore, type FleetStoreInput } from './fleet-store.js';
export { probeQueue } from './queue-probe.js';
export {
  CHUNK_JOB,
  ASSEMBLE_JOB,
  ChunkJobDataSchema,
  AssembleJobDataSchema,
  chunkJobId,
  assembleJobId,
  type ChunkJobData,
  type AssembleJobData,
  type ChunkProgress,
} from './fleet-jobs.js';
export {
  startFleetWorker,
  LOCK_DURATION_MS,
  STALLED_INTERVAL_MS,
  MAX_STALLED_COUNT,
  type FleetWorker,
  type FleetWorkerOptions,
} from './fleet-worker.js';
export {
  submitFleetRender,
  renderOnFleet,
  cancelFleetRender,
  removeRender,
  CHUNK_ATTEMPTS,
  type SubmitFleetRenderOptions,
  type FleetRenderOptions,
  type FleetRenderResult,
  type FleetSubmitEvent,
  type SubmittedRender,
} from './submit-fleet-render.js';
export { followFleetRender, type FleetProgressEvent, type FollowOptions, type ChunkTimings } from './follow-render.js';
export { createQueueRunner, type QueueRunnerOptions } from './queue-runner.js';
export { serveFleetApi, type ServeFleetApiOptions } from './serve-fleet-api.js';
export { fleetProgressEvents, type FleetEventLike } from './fleet-progress.js';
