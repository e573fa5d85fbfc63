import { describe, expect, it } from 'vitest';
import { settleWithin } from './page-ready.js';

describe('settleWithin', () => {
  it('returns as soon as the promise settles: before even a 0 ms timer, without pumping', async () => {
    const order: string[] = [];
    let pumps = 0;
    setTimeout(() => order.push('timer'), 0);
    await expect(settleWithin(Promise.resolve(7), 1_000, async () => void pumps++)).resolves.toBe(7);
    order.push('settled');
    expect(order).toEqual(['settled']);
    expect(pumps).toBe(0);
  });

  it('pumps while the promise is pending, and waits for a pump already sent', async () => {
    let pumps = 0;
    let inFlight = 0;
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve('done'), 60));
    const result = await settleWithin(slow, 1_000, async () => {
      pumps++;
      inFlight++;
      await new Promise((resolve) => setTimeout(resolve, 3));
      inFlight--;
    });
    expect(result).toBe('done');
    expect(pumps).toBeGreaterThan(1);
    expect(inFlight).toBe(0);
  });

  it("says 'timeout' when the promise never settles, and rejects with the promise's error", async () => {
    await expect(settleWithin(new Promise(() => undefined), 20, async () => undefined)).resolves.toBe('timeout');
    await expect(settleWithin(Promise.reject(new Error('boom')), 1_000, async () => undefined)).rejects.toThrow('boom');
  });
});
