import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_CONCURRENCY, MAP_MAX_CONCURRENCY, planLambdaChunks } from './plan-lambda-chunks.js';

const fps30 = { num: 30, den: 1 };

describe('planLambdaChunks', () => {
  it('never exceeds the account concurrency (default 10) nor the inline Map cap of 40', () => {
    const long = { totalFrames: 60 * 60 * 30, fps: fps30, format: 'mp4' };
    expect(planLambdaChunks(long).chunks.length).toBe(DEFAULT_ACCOUNT_CONCURRENCY);
    expect(planLambdaChunks({ ...long, accountConcurrency: 1000 }).chunks.length).toBe(MAP_MAX_CONCURRENCY);
    expect(planLambdaChunks({ ...long, accountConcurrency: 1000, maxConcurrency: 16 }).chunks.length).toBe(16);
    expect(planLambdaChunks({ ...long, chunkCount: 500, accountConcurrency: 25 }).concurrency).toBe(25);
  });
});
