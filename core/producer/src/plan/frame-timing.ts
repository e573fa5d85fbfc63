import type { Fps } from './render-options.js';

/** Frame count of a composition: round(duration * fps), at least 1 for any positive duration. */
export function frameCount(duration: number, fps: Fps): number {
  return Math.max(duration > 0 ? 1 : 0, Math.round((duration * fps.num) / fps.den));
}

/** Time of frame i in seconds: exactly i * den / num (one division, no accumulated error). */
export function frameTime(index: number, fps: Fps): number {
  return (index * fps.den) / fps.num;
}

/** A composition's data-fps (a number) as an exact fraction; 29.97 and 23.976 map to NTSC rates. */
export function fpsFromNumber(value: number): Fps {
  if (Number.isInteger(value)) return { num: value, den: 1 };
  for (const base of [24, 30, 60, 120]) {
    if (Math.abs(value - (base * 1000) / 1001) < 0.01) return { num: base * 1000, den: 1001 };
  }
  return { num: Math.round(value * 1000), den: 1000 };
}
