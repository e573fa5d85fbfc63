import { describe, expect, it } from 'vitest';
import { SeekPump } from './seek-pump.js';

function deferredSeeks(): { seekTo: (t: number) => Promise<void>; started: number[]; finish: () => void } {
  const started: number[] = [];
  const waiting: Array<() => void> = [];
  return {
    started,
    seekTo: (t) => {
      started.push(t);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    finish: () => waiting.shift()?.(),
  };
}

describe('SeekPump', () => {
  it('keeps one seek in flight and runs only the newest target after it', async () => {
    const seeks = deferredSeeks();
    const seeked: number[] = [];
    const pump = new SeekPump(seeks.seekTo, (t) => seeked.push(t));
    const first = pump.request(1);
    const second = pump.request(2);
    const third = pump.request(3);
    expect(pump.busy).toBe(true);
    expect(seeks.started).toEqual([1]);
    seeks.finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(seeks.started).toEqual([1, 3]);
    seeks.finish();
    await Promise.all([first, second, third]);
    expect(seeked).toEqual([1, 3]);
    expect(pump.busy).toBe(false);
  });

  it('starts a new run after the previous one settled, and a failing seek rejects its callers', async () => {
    const seeked: number[] = [];
    const pump = new SeekPump(
      async (t) => {
        if (t < 0) throw new Error('bad time');
      },
      (t) => seeked.push(t),
    );
    await expect(pump.request(-1)).rejects.toThrow('bad time');
    expect(pump.busy).toBe(false);
    await pump.request(0.5);
    expect(seeked).toEqual([0.5]);
  });
});
