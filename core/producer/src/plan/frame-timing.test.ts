import { describe, expect, it } from 'vitest';
import { fpsFromNumber, frameCount, frameTime } from './frame-timing.js';

describe('frame timing', () => {
  it('counts frames as round(duration * fps)', () => {
    expect(frameCount(1, { num: 30, den: 1 })).toBe(30);
    expect(frameCount(0.35, { num: 10, den: 1 })).toBe(4);
    expect(frameCount(10, { num: 30000, den: 1001 })).toBe(300);
    expect(frameCount(0.01, { num: 10, den: 1 })).toBe(1);
  });

  it('places frame i at exactly i / fps', () => {
    expect(frameTime(0, { num: 30, den: 1 })).toBe(0);
    expect(frameTime(3, { num: 30, den: 1 })).toBe(0.1);
    expect(frameTime(30000, { num: 30000, den: 1001 })).toBe(1001);
  });

  it('maps data-fps numbers to exact fractions', () => {
    expect(fpsFromNumber(25)).toEqual({ num: 25, den: 1 });
    expect(fpsFromNumber(29.97)).toEqual({ num: 30000, den: 1001 });
    expect(fpsFromNumber(12.5)).toEqual({ num: 12500, den: 1000 });
  });
});
