import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { classifyFailure, failureData, kindOfErrorName, LambdaFailure, RETRY_TABLE, retryDelayMs } from './retry-table.js';

describe('classifyFailure', () => {
  it('never retries deterministic codes, even when they claim to be retryable', () => {
    for (const code of [
      'plan-hash-mismatch',
      'version-mismatch',
      'browser-binary-unavailable',
      'beginframe-unsupported',
      'lint-failed',
      'invalid-variables',
    ] as const) {
      const result = classifyFailure(new SeekframeError(code, 'x', { retryable: true }));
      expect(result.kind).toBe('fatal');
      expect(result.error.retryable).toBe(false);
    }
  });

  it('retries flaky browser and network failures', () => {
    expect(classifyFailure(new Error('Protocol error: Target closed')).kind).toBe('transient');
    expect(classifyFailure(new SeekframeError('browser-crashed', 'x', { retryable: true })).kind).toBe('transient');
    expect(classifyFailure(new SeekframeError('capture-failed', 'read ECONNRESET')).kind).toBe('transient');
    const s3 = Object.assign(new Error('We encountered an internal error. Please try again.'), { name: 'InternalError' });
    expect(classifyFailure(s3).kind).toBe('transient');
  });

  it('waits longer on throttling', () => {
    const throttled = Object.assign(new Error('Rate Exceeded.'), { name: 'TooManyRequestsException' });
    expect(classifyFailure(throttled).kind).toBe('throttled');
    expect(kindOfErrorName('Lambda.TooManyRequestsException')).toBe('throttled');
  });

  it('treats a chunk timeout as a timeout and a non-retryable SeekframeError as fatal', () => {
    expect(classifyFailure(new SeekframeError('chunk-timeout', 'x', { retryable: true })).kind).toBe('timeout');
    expect(classifyFailure(new SeekframeError('audio-mix-failed', 'bad file')).kind).toBe('fatal');
    expect(kindOfErrorName('States.Timeout')).toBe('timeout');
    expect(kindOfErrorName('Sandbox.Timedout')).toBe('timeout');
  });
});

describe('retry rules', () => {
  it('back off like Step Functions (interval x rate^n, capped)', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(RETRY_TABLE.throttled, n))).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
    expect(RETRY_TABLE.fatal.maxAttempts).toBe(0);
    expect(RETRY_TABLE.timeout.maxAttempts).toBe(1);
  });

  it('round-trips the error through the Lambda error name and message', () => {
    const failure = new LambdaFailure(classifyFailure(new SeekframeError('version-mismatch', 'ffmpeg 4.1 vs 5.1', { stage: 'encode' })));
    expect(failure.name).toBe('Seekframe.Fatal');
    expect(kindOfErrorName(failure.name)).toBe('fatal');
    expect(failureData(failure.name, failure.message)).toEqual({
      code: 'version-mismatch',
      message: 'ffmpeg 4.1 vs 5.1',
      stage: 'encode',
      retryable: false,
    });
    expect(failureData('Sandbox.Timedout', 'Task timed out after 900.00 seconds').code).toBe('chunk-timeout');
  });
});
