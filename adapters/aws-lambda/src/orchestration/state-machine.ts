import { RETRY_ORDER, RETRY_TABLE } from '../retry/retry-table.js';
import { MAP_MAX_CONCURRENCY } from '../chunks/plan-lambda-chunks.js';

/**
 * The render workflow, Start -> Plan -> RenderChunks (Map) -> Assemble, with typed retries and
 * one failure path, written against the building blocks of SST's `sst.aws.StepFunctions`
 * (static `pass`, `lambdaInvoke`, `map`, `fail`; states chain with `next`, `retry`, `catch`).
 * sst.config.ts passes SST's own class; the test passes asl-blocks.ts, which serialises the same
 * calls to Amazon States Language JSON, so the definition can be snapshotted without SST.
 * Data flow uses JSONata (SST's query language): SFN payloads stay tiny, everything else is in S3.
 */
export interface RetryArgs {
  errors: string[];
  interval: `${number} seconds`;
  maxAttempts: number;
  backoffRate: number;
  maxDelay?: `${number} seconds`;
}

export interface BlockState {
  next<T extends BlockState>(state: T): T;
}
export interface FailableState extends BlockState {
  retry(args?: RetryArgs): FailableState;
  catch(state: BlockState, args?: { errors?: string[] }): FailableState;
}

export interface StateBlocks<Fn> {
  pass(args: { name: string; assign?: Record<string, unknown>; output?: unknown }): BlockState;
  lambdaInvoke(args: {
    name: string;
    function: Fn;
    payload?: Record<string, unknown>;
    output?: unknown;
    timeout?: `${number} seconds`;
  }): FailableState;
  map(args: {
    name: string;
    processor: BlockState;
    items: string;
    itemSelector?: Record<string, unknown>;
    maxConcurrency?: number;
    output?: unknown;
  }): FailableState;
  fail(args: { name: string; error?: string; cause?: string }): BlockState;
}

export interface RenderWorkflowOptions<Fn> {
  functions: { plan: Fn; renderChunk: Fn; assemble: Fn; fail: Fn };
  /** Map concurrency (capped at 40, the inline Map limit); the planner never makes more chunks. */
  maxConcurrency: number;
  /** Per-step limits in seconds; a step that runs longer fails with States.Timeout. */
  timeouts: { plan: number; renderChunk: number; assemble: number };
}

/** Step Functions Retry entries, in table order (first match wins; States.ALL must be last). */
export function retriersFromTable(): RetryArgs[] {
  const retriers: RetryArgs[] = RETRY_ORDER.map((kind) => {
    const rule = RETRY_TABLE[kind];
    return {
      errors: [rule.errorName, ...rule.awsErrorNames],
      interval: `${rule.intervalSeconds} seconds`,
      maxAttempts: rule.maxAttempts,
      backoffRate: rule.backoffRate,
      maxDelay: `${rule.maxDelaySeconds} seconds`,
    };
  });
  // Anything untyped (a runtime crash, an unknown AWS error) is retried like a transient failure.
  const transient = RETRY_TABLE.transient;
  retriers.push({
    errors: ['States.ALL'],
    interval: `${transient.intervalSeconds} seconds`,
    maxAttempts: transient.maxAttempts,
    backoffRate: transient.backoffRate,
    maxDelay: `${transient.maxDelaySeconds} seconds`,
  });
  return retriers;
}

const RETRY_COUNT = '{% $states.context.State.RetryCount %}';

export function buildRenderWorkflow<Fn>(blocks: StateBlocks<Fn>, options: RenderWorkflowOptions<Fn>): BlockState {
  const retriers = retriersFromTable();
  const withRetries = (state: FailableState): FailableState => {
    for (const r of retriers) state.retry(r);
    return state;
  };

  const start = blocks.pass({ name: 'Start', assign: { renderId: '{% $states.input.renderId %}' } });
  const recordFailure = blocks.lambdaInvoke({
    name: 'RecordFailure',
    function: options.functions.fail,
    payload: { renderId: '{% $renderId %}', error: '{% $states.input %}' },
    timeout: '60 seconds',
  });
  recordFailure.retry({ errors: ['States.ALL'], interval: '2 seconds', maxAttempts: 2, backoffRate: 2 });
  const failed = blocks.fail({
    name: 'Failed',
    error: 'Seekframe.RenderFailed',
    cause: 'The render failed; GET /api/render/<id> (or status.json) has the error.',
  });
  recordFailure.next(failed);

  const plan = withRetries(
    blocks.lambdaInvoke({
      name: 'Plan',
      function: options.functions.plan,
      payload: { renderId: '{% $renderId %}', attempt: RETRY_COUNT },
      output: '{% $states.result.Payload %}',
      timeout: `${options.timeouts.plan} seconds`,
    }),
  ).catch(recordFailure);

  const renderChunk = withRetries(
    blocks.lambdaInvoke({
      name: 'RenderChunk',
      function: options.functions.renderChunk,
      payload: {
        renderId: '{% $states.input.renderId %}',
        planHash: '{% $states.input.planHash %}',
        chunk: '{% $states.input.chunk %}',
        attempt: RETRY_COUNT,
      },
      output: '{% $states.result.Payload %}',
      timeout: `${options.timeouts.renderChunk} seconds`,
    }),
  );
  const chunks = blocks
    .map({
      name: 'RenderChunks',
      processor: renderChunk,
      items: '{% $states.input.chunks %}',
      itemSelector: {
        renderId: '{% $states.input.renderId %}',
        planHash: '{% $states.input.planHash %}',
        chunk: '{% $states.context.Map.Item.Value.index %}',
      },
      maxConcurrency: Math.max(1, Math.min(MAP_MAX_CONCURRENCY, Math.floor(options.maxConcurrency))),
      output: { renderId: '{% $states.input.renderId %}', planHash: '{% $states.input.planHash %}' },
    })
    .catch(recordFailure);

  const assemble = withRetries(
    blocks.lambdaInvoke({
      name: 'Assemble',
      function: options.functions.assemble,
      payload: { renderId: '{% $states.input.renderId %}', planHash: '{% $states.input.planHash %}', attempt: RETRY_COUNT },
      output: '{% $states.result.Payload %}',
      timeout: `${options.timeouts.assemble} seconds`,
    }),
  ).catch(recordFailure);

  start.next(plan).next(chunks).next(assemble);
  return start;
}
