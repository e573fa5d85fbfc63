import { describe, expect, it } from 'vitest';
import { aggregateProgress, type ProgressSources } from './aggregate-progress.js';
import { estimateCost, DEFAULT_PRICING } from './cost.js';
import type { ChunkProgress } from './progress-records.js';

const t0 = Date.parse('2026-11-23T10:00:00.000Z');
const iso = (ms: number) => new Date(t0 + ms).toISOString();
const request: ProgressSources['request'] = { id: 'r1', createdAt: iso(0), request: {}, chunking: {}, chunkTimeoutSeconds: 900 };

function chunk(index: number, framesRendered: number, done: boolean, durationMs: number, startedMs = 1000): ChunkProgress {
  return {
    step: 'chunk',
    chunk: index,
    attempt: 0,
    frames: 30,
    framesRendered,
    done,
    startedAt: iso(startedMs),
    updatedAt: iso(startedMs + durationMs),
    memoryMb: 2048,
    durationMs,
  };
}

const plan = {
  step: 'plan' as const,
  done: true as const,
  planHash: 'p',
  totalFrames: 90,
  chunks: 3,
  concurrency: 3,
  finishedAt: iso(900),
  memoryMb: 1024,
  durationMs: 800,
};

describe('aggregateProgress', () => {
  it('is in the plan stage before plan.json exists', () => {
    const p = aggregateProgress({ request, plan: null, chunks: [], assemble: null, errors: [], status: null, now: t0 + 500 });
    expect(p).toMatchObject({
      status: 'running',
      stage: 'plan',
      progress: 0,
      totalFrames: null,
      chunks: { total: null, done: 0, retried: 0 },
    });
  });

  it('counts frames of all chunks, finished chunks and retried chunks', () => {
    const p = aggregateProgress({
      request,
      plan,
      chunks: [chunk(0, 30, true, 4000), chunk(1, 15, false, 2000), chunk(2, 0, false, 0)],
      assemble: null,
      errors: [
        {
          step: '00001',
          attempt: 0,
          kind: 'transient',
          error: { code: 'browser-crashed', message: 'x', retryable: true },
          at: iso(1500),
          memoryMb: 2048,
          durationMs: 500,
        },
      ],
      status: null,
      now: t0 + 6000,
    });
    expect(p.stage).toBe('render');
    expect(p.framesRendered).toBe(45);
    expect(p.progress).toBeCloseTo(0.05 + 0.85 * 0.5, 3);
    expect(p.chunks).toEqual({ total: 3, done: 1, retried: 1 });
    expect(p.failedAttempts).toBe(1);
    expect(p.slowestChunkMs).toBe(5000); // chunk 1 and 2 still running since 1 s
    expect(p.timeoutRisk).toBe(false);
  });

  it('warns when the slowest chunk passes 80 % of the function timeout', () => {
    const p = aggregateProgress({
      request: { ...request, chunkTimeoutSeconds: 10 },
      plan,
      chunks: [chunk(0, 10, false, 0)],
      assemble: null,
      errors: [],
      status: null,
      now: t0 + 1000 + 8500,
    });
    expect(p.timeoutRisk).toBe(true);
    expect(p.warning).toContain('10 s function timeout');
  });

  it('is done with the output once status.json says so', () => {
    const p = aggregateProgress({
      request,
      plan,
      chunks: [chunk(0, 30, true, 4000), chunk(1, 30, true, 4000), chunk(2, 30, true, 4000)],
      assemble: { step: 'assemble', done: true, startedAt: iso(6000), updatedAt: iso(7000), memoryMb: 3008, durationMs: 1000 },
      errors: [],
      status: { status: 'completed', finishedAt: iso(7000), output: { key: 'renders/r1/out.mp4', size: 1234, frames: 90 } },
      now: t0 + 8000,
    });
    expect(p).toMatchObject({ status: 'completed', stage: 'done', progress: 1, framesRendered: 90, output: { size: 1234 } });
    expect(p.cost.invocations).toBe(5);
    const gbs = 0.8 * 1 + 3 * 4 * 2 + 1 * (3008 / 1024);
    expect(p.cost.lambdaGbSeconds).toBeCloseTo(gbs, 3);
    expect(p.cost.estimated).toBe(true);
    expect(p.cost.display).toMatch(/^~\$\d+\.\d+ \(estimate\)$/);
    expect(p.cost.functions.plan).toMatchObject({ invocations: 1, gbSeconds: 0.8 });
    expect(p.cost.functions.renderChunk).toMatchObject({ invocations: 3, gbSeconds: 24 });
    expect(p.cost.functions.assemble.gbSeconds).toBeCloseTo(3008 / 1024, 2);
  });

  it('bills a failed attempt to the function that ran it', () => {
    const error = (step: string) => ({
      step,
      attempt: 0,
      kind: 'transient',
      error: { code: 'browser-crashed' as const, message: 'x', retryable: true },
      at: iso(1500),
      memoryMb: 1024,
      durationMs: 1000,
    });
    const p = aggregateProgress({
      request,
      plan,
      chunks: [],
      assemble: null,
      errors: [error('plan'), error('00002'), error('assemble')],
      status: null,
      now: t0 + 2000,
    });
    expect([p.cost.functions.plan.invocations, p.cost.functions.renderChunk.invocations, p.cost.functions.assemble.invocations]).toEqual([
      2, 1, 1,
    ]);
  });
});

describe('estimateCost', () => {
  it('is GB-seconds x price + requests + transitions', () => {
    const c = estimateCost(
      [
        { memoryMb: 1024, durationMs: 1000 },
        { memoryMb: 2048, durationMs: 500.2 },
      ],
      10,
    );
    expect(c.lambdaGbSeconds).toBeCloseTo(1 + 2 * 0.501, 6);
    expect(c.estimatedUsd).toBeCloseTo(
      2.002 * DEFAULT_PRICING.usdPerGbSecond + 2 * DEFAULT_PRICING.usdPerRequest + 10 * DEFAULT_PRICING.usdPerTransition,
      6,
    );
  });
});
