import { describe, expect, it } from 'vitest';
import { scheduleWorkerBatches } from './schedule-worker-batches.js';

describe('scheduleWorkerBatches', () => {
  it('covers every frame once, in order, without gaps', () => {
    for (const [total, workers] of [
      [1, 1],
      [7, 2],
      [100, 3],
      [1000, 8],
      [5, 24],
    ] as const) {
      const chunks = scheduleWorkerBatches(total, workers);
      expect(chunks[0]!.start).toBe(0);
      expect(chunks.at(-1)!.end).toBe(total);
      chunks.slice(1).forEach((chunk, i) => expect(chunk.start).toBe(chunks[i]!.end));
      chunks.forEach((chunk) => expect(chunk.end).toBeGreaterThan(chunk.start));
    }
  });
  it('starts at about four chunks per worker, at most 30 frames each', () => {
    expect(scheduleWorkerBatches(80, 2)[0]).toEqual({ start: 0, end: 10 });
    expect(scheduleWorkerBatches(10_000, 2)[0]).toEqual({ start: 0, end: 30 });
    expect(scheduleWorkerBatches(3, 4)).toHaveLength(3);
  });
  it('shrinks the chunks towards the end so the workers finish together', () => {
    const chunks = scheduleWorkerBatches(300, 2);
    const sizes = chunks.map((chunk) => chunk.end - chunk.start);
    sizes.slice(1).forEach((size, i) => expect(size).toBeLessThanOrEqual(sizes[i]!));
    // No chunk is more than half a worker's fair share of what is left when it is taken.
    chunks.forEach((chunk) => expect(chunk.end - chunk.start).toBeLessThanOrEqual(Math.ceil((300 - chunk.start) / 4)));
    expect(sizes.at(-1)).toBe(1);
  });
  it('honours an explicit chunk size', () => {
    expect(scheduleWorkerBatches(10, 2, 4)).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 8 },
      { start: 8, end: 10 },
    ]);
    expect(scheduleWorkerBatches(0, 2)).toEqual([]);
  });
});
