import { describe, expect, it } from 'vitest';
import { RenderQueue } from './render-queue.js';

function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('RenderQueue', () => {
  it('starts up to max at once, queues the rest FIFO with positions, and passes slots on', async () => {
    const queue = new RenderQueue(1);
    const started: string[] = [];
    const jobs = { a: deferred(), b: deferred(), c: deferred() };
    const positions: Record<string, number[]> = { b: [], c: [] };
    const ticket = (id: 'a' | 'b' | 'c') =>
      queue.enqueue(
        id,
        () => (started.push(id), jobs[id].promise),
        (p) => positions[id]!.push(p),
      );
    expect(ticket('a').position).toBe(0);
    expect(ticket('b').position).toBe(1);
    expect(ticket('c').position).toBe(2);
    await tick();
    expect(started).toEqual(['a']);
    expect(queue.status()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 2 });
    jobs.a.reject(new Error('failed render still frees its slot'));
    await tick();
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(positions.c).toEqual([1]);
    expect(queue.status()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 1 });
    jobs.b.resolve();
    jobs.c.resolve();
    await queue.idle();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(queue.status().activeRenders).toBe(0);
  });

  it('a waiting job that leaves moves those behind it up and never starts', async () => {
    const queue = new RenderQueue(1);
    const started: string[] = [];
    const hold = deferred();
    queue.enqueue('a', () => (started.push('a'), hold.promise));
    const b = queue.enqueue('b', async () => void started.push('b'));
    const cPositions: number[] = [];
    queue.enqueue(
      'c',
      async () => void started.push('c'),
      (p) => cPositions.push(p),
    );
    expect(b.leave()).toBe(true);
    expect(b.leave()).toBe(false);
    expect(cPositions).toEqual([1]);
    expect(queue.status().queuedRenders).toBe(1);
    hold.resolve();
    await tick();
    await queue.idle();
    expect(started).toEqual(['a', 'c']);
  });

  it('clearWaiting empties the line in order', () => {
    const queue = new RenderQueue(1);
    queue.enqueue('a', () => new Promise(() => undefined));
    queue.enqueue('b', async () => undefined);
    queue.enqueue('c', async () => undefined);
    expect(queue.clearWaiting()).toEqual(['b', 'c']);
    expect(queue.status()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 0 });
  });
});
