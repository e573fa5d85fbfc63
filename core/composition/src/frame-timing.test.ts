import { describe, expect, it } from 'vitest';
import { defaultFps, fpsFromNumber, frameAt, frameCount, frameTime } from './frame-timing.js';

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

  it('finds the frame showing at a time, and frameAt(frameTime(i)) is i for every rate', () => {
    for (const fps of [
      { num: 30, den: 1 },
      { num: 30000, den: 1001 },
      { num: 24000, den: 1001 },
      { num: 25, den: 1 },
      { num: 12500, den: 1000 },
    ]) {
      for (let i = 0; i < 2000; i++) expect(frameAt(frameTime(i, fps), fps)).toBe(i);
    }
    expect(frameAt(0.149, { num: 10, den: 1 })).toBe(1);
    expect(frameAt(-1, { num: 10, den: 1 })).toBe(0);
  });

  it('defaults to the composition data-fps, else 30', () => {
    expect(defaultFps(undefined)).toEqual({ num: 30, den: 1 });
    expect(defaultFps(23.976)).toEqual({ num: 24000, den: 1001 });
  });
});
