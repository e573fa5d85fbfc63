export {
  buildRenderWorkflow,
  retriersFromTable,
  type StateBlocks,
  type BlockState,
  type FailableState,
  type RetryArgs,
  type RenderWorkflowOptions,
} from './state-machine.js';
export { aslBlocks, toStateMachineDefinition } from './asl-blocks.js';
export { RETRY_TABLE, RETRY_ORDER } from '../retry/retry-table.js';
export { MAP_MAX_CONCURRENCY, DEFAULT_ACCOUNT_CONCURRENCY } from '../chunks/plan-lambda-chunks.js';
export { SHORT_LIVED_SUFFIXES, SHORT_LIVED_TAG, SHORT_LIVED_DAYS, RENDER_RETENTION_DAYS, RENDERS_PREFIX } from '../storage/layout.js';
