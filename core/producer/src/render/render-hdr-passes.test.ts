import { describe, expect, it } from 'vitest';
import { peakNits } from './render-hdr-passes.js';

describe('peakNits', () => {
  it('MaxCLL first, else the mastering display peak, else unknown', () => {
    expect(peakNits({ maxCll: '1000,400', masterDisplay: 'G(1,2)B(3,4)R(5,6)WP(7,8)L(40000000,50)' })).toBe(1000);
    expect(peakNits({ maxCll: '0,0', masterDisplay: 'G(1,2)B(3,4)R(5,6)WP(7,8)L(40000000,50)' })).toBe(4000);
    expect(peakNits({})).toBeUndefined();
  });
});
