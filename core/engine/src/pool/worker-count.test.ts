import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { autoWorkerCount, MAX_WORKERS, parseWorkers } from './worker-count.js';

const GB = 1024 ** 3;

describe('autoWorkerCount', () => {
  it('uses cores - 2 when memory and frames allow', () => {
    expect(autoWorkerCount({ cores: 8, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(6);
  });
  it('never goes below one worker', () => {
    expect(autoWorkerCount({ cores: 1, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(1);
    expect(autoWorkerCount({ cores: 16, freeMemoryBytes: 0, frameCount: 10_000 })).toBe(1);
    expect(autoWorkerCount({ cores: 16, freeMemoryBytes: 64 * GB, frameCount: 0 })).toBe(1);
  });
  it('runs two browsers on 2-4 cores, where one cannot keep the cores busy, never more than the cores', () => {
    expect(autoWorkerCount({ cores: 2, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(2);
    expect(autoWorkerCount({ cores: 3, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(2);
    expect(autoWorkerCount({ cores: 4, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(2);
    expect(autoWorkerCount({ cores: 5, freeMemoryBytes: 64 * GB, frameCount: 10_000 })).toBe(3);
  });
  it('is bounded by free memory at 512 MB per worker', () => {
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 2 * GB, frameCount: 10_000 })).toBe(4);
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 2 * GB - 1, frameCount: 10_000 })).toBe(3);
  });
  it('is bounded by one worker per 30 frames, rounding up', () => {
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 64 * GB, frameCount: 20 })).toBe(1);
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 64 * GB, frameCount: 30 })).toBe(1);
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 64 * GB, frameCount: 31 })).toBe(2);
    expect(autoWorkerCount({ cores: 32, freeMemoryBytes: 64 * GB, frameCount: 120 })).toBe(4);
  });
  it('is capped at 24', () => {
    expect(autoWorkerCount({ cores: 128, freeMemoryBytes: 512 * GB, frameCount: 1e6 })).toBe(MAX_WORKERS);
  });
  it('reads the machine when cores/memory are omitted', () => {
    const n = autoWorkerCount({ frameCount: 1e6 });
    expect(Number.isInteger(n)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(MAX_WORKERS);
  });
});

describe('parseWorkers', () => {
  it('accepts auto in any case and 1..24', () => {
    expect(parseWorkers('auto')).toBe('auto');
    expect(parseWorkers(' AUTO ')).toBe('auto');
    expect(parseWorkers('1')).toBe(1);
    expect(parseWorkers('24')).toBe(24);
    expect(parseWorkers(3)).toBe(3);
  });
  it.each(['0', '25', '-1', '1.5', 'two', '', '3x'])('rejects %j with invalid-options naming --workers', (value) => {
    let caught: unknown;
    try {
      parseWorkers(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SeekframeError);
    expect((caught as SeekframeError).code).toBe('invalid-options');
    expect((caught as SeekframeError).message).toContain('--workers');
    expect((caught as SeekframeError).message).toContain('1 to 24');
  });
});
