import { classifyFailure, LambdaFailure } from '../retry/retry-table.js';
import { putJson, renderKeys } from '@seekframe/producer/distributed';
import type { AttemptError } from '../progress/progress-records.js';
import type { HandlerDeps } from './handler-deps.js';

/**
 * Runs one step and turns any failure into what Step Functions (and the local runner) branch
 * on: the failed attempt is recorded in `errors/<step>-<attempt>.json` (progress and cost read
 * it), then a LambdaFailure named after its retry rule is thrown.
 */
export async function runStep<T>(
  deps: HandlerDeps,
  where: { renderId: string; step: string; attempt: number },
  body: () => Promise<T>,
): Promise<T> {
  const now = deps.now ?? Date.now;
  const started = now();
  try {
    return await body();
  } catch (thrown) {
    const classified = classifyFailure(thrown);
    const record: AttemptError = {
      step: where.step,
      attempt: where.attempt,
      kind: classified.kind,
      error: classified.error,
      at: new Date(now()).toISOString(),
      memoryMb: deps.memoryMb,
      durationMs: now() - started,
    };
    await putJson(deps.store, renderKeys(where.renderId).error(where.step, where.attempt), record).catch(() => undefined);
    throw new LambdaFailure(classified);
  }
}
