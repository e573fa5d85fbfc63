import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { planChunks } from './plan-chunks.js';

const fps30 = { num: 30, den: 1 };

function assertContiguous(total: number, chunks: { start: number; end: number; index: number }[]): void {
  expect(chunks[0]!.start).toBe(0);
  expect(chunks.at(-1)!.end).toBe(total);
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i);
    expect(chunk.end).toBeGreaterThan(chunk.start);
    if (i > 0) expect(chunk.start).toBe(chunks[i - 1]!.end);
  });
  const sizes = chunks.map((c) => c.end - c.start);
  expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
}

describe('planChunks', () => {
  it('covers every frame exactly once with sizes that differ by at most one', () => {
    for (const total of [1, 7, 30, 31, 299, 1800, 1801, 54000]) {
      for (const chunkCount of [1, 2, 3, 4, 9, 10]) {
        const { chunks } = planChunks({ totalFrames: total, fps: fps30, format: 'mp4', chunkCount });
        assertContiguous(total, chunks);
        expect(chunks.length).toBe(Math.min(chunkCount, total));
      }
    }
  });

  it('keeps automatic chunks at least one second long', () => {
    const { chunks } = planChunks({ totalFrames: 75, fps: fps30, format: 'mp4' });
    expect(chunks.length).toBe(2);
    for (const c of chunks) expect(c.end - c.start).toBeGreaterThanOrEqual(30);
    expect(planChunks({ totalFrames: 29, fps: fps30, format: 'mp4' }).chunks).toEqual([{ index: 0, start: 0, end: 29 }]);
    // 29.97 fps: one second is 30 frames, not 29
    expect(planChunks({ totalFrames: 59, fps: { num: 30000, den: 1001 }, format: 'mp4' }).chunks.length).toBe(1);
  });

  it('never exceeds the cap', () => {
    const long = { totalFrames: 60 * 60 * 30, fps: fps30, format: 'mp4' };
    expect(planChunks(long).chunks.length).toBe(3600);
    expect(planChunks({ ...long, maxChunks: 16 }).chunks.length).toBe(16);
    expect(planChunks({ ...long, chunkCount: 500, maxChunks: 25 }).concurrency).toBe(25);
    expect(planChunks({ ...long, framesPerChunk: 30, maxChunks: 0 }).chunks.length).toBe(3600);
  });

  it('evens out a requested chunk length', () => {
    const { chunks } = planChunks({ totalFrames: 100, fps: fps30, format: 'mp4', framesPerChunk: 30 });
    expect(chunks.map((c) => c.end - c.start)).toEqual([25, 25, 25, 25]);
  });

  it('refuses formats whose pieces cannot be joined without re-encoding', () => {
    for (const format of ['gif', 'webm', 'mov', 'png-sequence']) {
      try {
        planChunks({ totalFrames: 30, fps: fps30, format });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(SeekframeError);
        expect((error as SeekframeError).code).toBe('format-not-distributable');
        expect((error as SeekframeError).message).toContain(format);
      }
    }
  });
});
