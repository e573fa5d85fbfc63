import { SeekframeError } from '@seekframe/composition';
import { failureData, kindOfErrorName, RETRY_TABLE, retryDelayMs, type FailureKind } from '../retry/retry-table.js';
import type { AssembleOutput, ChunkOutput, PlanOutput } from '../handlers/handler-deps.js';

/**
 * Runs plan -> chunks (at most `maxConcurrency` at once) -> assemble in this process, the way the
 * Step Functions definition does: the same retry table (per-kind counters, backoff), a time
 * limit per step, and one failure path (the fail step, then the error). Each step is an invoker,
 * so the handlers run in-process or through the Lambda Invoke API.
 */
export interface StepInvokers {
  plan(event: { renderId: string; attempt: number }, signal: AbortSignal): Promise<PlanOutput>;
  renderChunk(event: { renderId: string; planHash: string; chunk: number; attempt: number }, signal: AbortSignal): Promise<ChunkOutput>;
  assemble(event: { renderId: string; planHash: string; attempt: number }, signal: AbortSignal): Promise<AssembleOutput>;
  fail(event: { renderId: string; error: { Error: string; Cause: string } }): Promise<unknown>;
}

export interface LocalPipelineOptions {
  renderId: string;
  maxConcurrency: number;
  /** Milliseconds per attempt; an attempt over it fails as a timeout (States.Timeout). */
  timeouts: { plan: number; renderChunk: number; assemble: number };
  /** Replaces the backoff sleep (tests keep the order and count, not the wall time). */
  sleep?: (ms: number) => Promise<void>;
  onAttempt?: (info: { step: string; attempt: number; error?: { name: string; kind: FailureKind; delayMs: number | null } }) => void;
  /**
   * Stops the execution, as StopExecution does: no step starts after it and the fail step does
   * not run (a stopped execution takes no Catch); the steps in flight are aborted here (on AWS
   * they run on, and their results go nowhere). The run rejects with the signal's reason.
   */
  stop?: AbortSignal;
}

export interface StepFailure {
  name: string;
  message: string;
}

class AttemptTimeout extends Error {
  constructor(step: string, ms: number) {
    super(JSON.stringify({ code: 'chunk-timeout', message: `${step} did not finish within ${ms} ms.`, retryable: true }));
    this.name = RETRY_TABLE.timeout.errorName;
  }
}

export async function runLocalPipeline(invoke: StepInvokers, options: LocalPipelineOptions): Promise<AssembleOutput> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const renderAbort = new AbortController();
  const onStop = (): void => renderAbort.abort(options.stop!.reason);
  if (options.stop?.aborted) onStop();
  else options.stop?.addEventListener('abort', onStop, { once: true });

  const withRetries = async <T>(
    step: string,
    timeoutMs: number,
    call: (attempt: number, signal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    const retriesByKind = new Map<FailureKind, number>();
    for (let attempt = 0; ; attempt++) {
      if (renderAbort.signal.aborted) throw renderAbort.signal.reason;
      const attemptAbort = new AbortController();
      const stop = (): void => attemptAbort.abort(renderAbort.signal.reason);
      renderAbort.signal.addEventListener('abort', stop, { once: true });
      let timer: NodeJS.Timeout | undefined;
      try {
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const error = new AttemptTimeout(step, timeoutMs);
            attemptAbort.abort(error);
            reject(error);
          }, timeoutMs);
        });
        const aborted = new Promise<never>((_, reject) =>
          attemptAbort.signal.addEventListener('abort', () => reject(attemptAbort.signal.reason), { once: true }),
        );
        const result = await Promise.race([call(attempt, attemptAbort.signal), timedOut, aborted]);
        options.onAttempt?.({ step, attempt });
        return result;
      } catch (thrown) {
        if (renderAbort.signal.aborted && thrown === renderAbort.signal.reason) throw thrown;
        const name = thrown instanceof Error ? thrown.name : 'Error';
        const kind = kindOfErrorName(name) ?? 'transient';
        const rule = RETRY_TABLE[kind];
        const used = retriesByKind.get(kind) ?? 0;
        const delayMs = used < rule.maxAttempts ? retryDelayMs(rule, used + 1) : null;
        options.onAttempt?.({ step, attempt, error: { name, kind, delayMs } });
        if (delayMs === null) throw thrown;
        retriesByKind.set(kind, used + 1);
        await sleep(delayMs);
      } finally {
        clearTimeout(timer);
        renderAbort.signal.removeEventListener('abort', stop);
      }
    }
  };

  try {
    const plan = await withRetries('plan', options.timeouts.plan, (attempt, signal) =>
      invoke.plan({ renderId: options.renderId, attempt }, signal),
    );
    await mapWithConcurrency(plan.chunks, Math.max(1, options.maxConcurrency), renderAbort, (item) =>
      withRetries(`chunk ${item.index}`, options.timeouts.renderChunk, (attempt, signal) =>
        invoke.renderChunk({ renderId: options.renderId, planHash: plan.planHash, chunk: item.index, attempt }, signal),
      ),
    );
    return await withRetries('assemble', options.timeouts.assemble, (attempt, signal) =>
      invoke.assemble({ renderId: options.renderId, planHash: plan.planHash, attempt }, signal),
    );
  } catch (thrown) {
    if (options.stop?.aborted) throw options.stop.reason;
    renderAbort.abort(thrown);
    const name = thrown instanceof Error ? thrown.name : 'Error';
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    // The Catch -> RecordFailure path of the state machine, with Lambda's error JSON as Cause.
    await invoke.fail({
      renderId: options.renderId,
      error: { Error: name, Cause: JSON.stringify({ errorType: name, errorMessage: message }) },
    });
    throw SeekframeError.fromJSON(failureData(name, message));
  } finally {
    options.stop?.removeEventListener('abort', onStop);
  }
}

/** Like an inline Map: at most `limit` at once; the first failure stops launching and aborts the rest. */
async function mapWithConcurrency<I, O>(items: I[], limit: number, abort: AbortController, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results: O[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        if (!failure) {
          failure = { error };
          abort.abort(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
