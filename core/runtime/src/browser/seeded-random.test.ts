import { describe, expect, it } from 'vitest';
import { hashString, seededRandom } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats a sequence for a seed and differs between seeds', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const seqA = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(seqA);
  });

  it('stays in [0, 1) and spreads evenly enough for visuals', () => {
    const r = seededRandom(1);
    const buckets = new Array<number>(10).fill(0);
    let inRange = true;
    for (let i = 0; i < 10_000; i++) {
      const v = r();
      if (!(v >= 0 && v < 1)) inRange = false;
      buckets[Math.floor(v * 10)]! += 1;
    }
    expect(inRange).toBe(true);
    for (const count of buckets) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  it('hashes instance ids to distinct 32-bit seeds', () => {
    expect(hashString('card-a')).not.toBe(hashString('card-b'));
    expect(hashString('card-a')).toBe(hashString('card-a'));
    expect(Number.isInteger(hashString('x')) && hashString('x') >= 0 && hashString('x') < 2 ** 32).toBe(true);
  });
});
