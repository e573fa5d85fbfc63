import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { classifyFailure, LambdaFailure } from '../retry/retry-table.js';
import { runLocalPipeline, type StepInvokers } from './local-pipeline.js';

const fail = (code: 'browser-crashed' | 'version-mismatch', retryable: boolean) =>
  new LambdaFailure(classifyFailure(new SeekframeError(code, `${code} happened`, { retryable })));

function invokers(chunks: number, renderChunk: StepInvokers['renderChunk']) {
  const failures: { Error: string; Cause: string }[] = [];
  const calls: string[] = [];
  const invoke: StepInvokers = {
    plan: async ({ renderId }) => {
      calls.push('plan');
      return { renderId, planHash: 'h1', chunkCount: chunks, chunks: Array.from({ length: chunks }, (_, index) => ({ index })) };
    },
    renderChunk: (event, signal) => {
      calls.push(`chunk ${event.chunk}#${event.attempt}`);
      return renderChunk(event, signal);
    },
    assemble: async ({ renderId }) => {
      calls.push('assemble');
      return { renderId, output: { key: 'out', size: 1, frames: 1 } };
    },
    fail: async (event) => {
      failures.push(event.error);
    },
  };
  return { invoke, failures, calls };
}

const timeouts = { plan: 5_000, renderChunk: 5_000, assemble: 5_000 };

describe('runLocalPipeline', () => {
  it('retries a transient failure with the table backoff and then succeeds', async () => {
    const delays: number[] = [];
    const { invoke, calls, failures } = invokers(3, async (e) => {
      if (e.chunk === 1 && e.attempt === 0) throw fail('browser-crashed', true);
      return { renderId: e.renderId, chunk: e.chunk, frames: 10, durationMs: 1 };
    });
    const result = await runLocalPipeline(invoke, {
      renderId: 'r',
      maxConcurrency: 2,
      timeouts,
      sleep: async (ms) => void delays.push(ms),
    });
    expect(result.output.key).toBe('out');
    expect(calls).toContain('chunk 1#0');
    expect(calls).toContain('chunk 1#1');
    expect(delays).toEqual([2000]);
    expect(failures).toEqual([]);
  });

  it('never retries a non-retryable failure and records it through the fail step', async () => {
    const { invoke, calls, failures } = invokers(4, async (e) => {
      if (e.chunk === 0) throw fail('version-mismatch', false);
      return { renderId: e.renderId, chunk: e.chunk, frames: 10, durationMs: 1 };
    });
    const error = await runLocalPipeline(invoke, { renderId: 'r', maxConcurrency: 1, timeouts, sleep: async () => undefined }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeekframeError);
    expect((error as SeekframeError).code).toBe('version-mismatch');
    expect(calls.filter((c) => c.startsWith('chunk 0'))).toEqual(['chunk 0#0']);
    // with concurrency 1 nothing after the failed chunk starts, and assembly never runs
    expect(calls).not.toContain('chunk 1#0');
    expect(calls).not.toContain('assemble');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.Error).toBe('Seekframe.Fatal');
    expect(JSON.parse(failures[0]!.Cause).errorMessage).toContain('version-mismatch');
  });

  it('fails a render with a stuck chunk within a bounded time (one timeout retry), aborting the stuck attempts', async () => {
    const aborted: number[] = [];
    const { invoke, failures } = invokers(2, (e, signal) => {
      if (e.chunk === 1) {
        // hangs forever unless aborted
        return new Promise((_, reject) => signal.addEventListener('abort', () => (aborted.push(e.attempt), reject(new Error('aborted')))));
      }
      return Promise.resolve({ renderId: e.renderId, chunk: e.chunk, frames: 10, durationMs: 1 });
    });
    const started = Date.now();
    const error = await runLocalPipeline(invoke, {
      renderId: 'r',
      maxConcurrency: 2,
      timeouts: { ...timeouts, renderChunk: 300 },
      sleep: async () => undefined,
    }).catch((e: unknown) => e);
    expect((error as SeekframeError).code).toBe('chunk-timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(aborted).toEqual([0, 1]);
    expect(failures[0]!.Error).toBe('Seekframe.Timeout');
  });

  it('a stop (StopExecution) aborts the chunks in flight, starts nothing after, and runs no fail step', async () => {
    const stop = new AbortController();
    const aborted: number[] = [];
    const { invoke, calls, failures } = invokers(3, (e, signal) => {
      // Chunk 0 is in flight when the stop comes; it ends only by its abort.
      if (e.chunk === 0) queueMicrotask(() => stop.abort(new Error('stopped: DELETE /api/render/:id')));
      return new Promise((_, reject) => signal.addEventListener('abort', () => (aborted.push(e.chunk), reject(signal.reason))));
    });
    const error = await runLocalPipeline(invoke, { renderId: 'r', maxConcurrency: 1, timeouts, stop: stop.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('stopped: DELETE /api/render/:id');
    expect(aborted).toEqual([0]);
    expect(calls).toEqual(['plan', 'chunk 0#0']);
    expect(failures).toEqual([]);
  });

  it('keeps at most maxConcurrency chunks in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const { invoke } = invokers(9, async (e) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return { renderId: e.renderId, chunk: e.chunk, frames: 1, durationMs: 1 };
    });
    await runLocalPipeline(invoke, { renderId: 'r', maxConcurrency: 3, timeouts });
    expect(peak).toBe(3);
  });
});
