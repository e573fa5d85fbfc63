/**
 * Frame numbers and times, shared by the render (producer) and the preview page (browser), so
 * frame N of a preview is the time the render seeks for frame N. Pure; no `node:` imports.
 */

/** A frame rate as an exact fraction, so frame i sits at exactly i * den / num seconds. */
export interface Fps {
  num: number;
  den: number;
}

/** Frame count of a composition: round(duration * fps), at least 1 for any positive duration. */
export function frameCount(duration: number, fps: Fps): number {
  return Math.max(duration > 0 ? 1 : 0, Math.round((duration * fps.num) / fps.den));
}

/** Time of frame i in seconds: exactly i * den / num (one division, no accumulated error). */
export function frameTime(index: number, fps: Fps): number {
  return (index * fps.den) / fps.num;
}

/**
 * The frame showing at time `t`: the last frame whose time is at or before `t`. The tolerance
 * absorbs the float error of `frameTime` (frameAt(frameTime(i)) is always i).
 */
export function frameAt(t: number, fps: Fps): number {
  return Math.max(0, Math.floor((t * fps.num) / fps.den + 1e-6));
}

/** A composition's data-fps (a number) as an exact fraction; 29.97 and 23.976 map to NTSC rates. */
export function fpsFromNumber(value: number): Fps {
  if (Number.isInteger(value)) return { num: value, den: 1 };
  for (const base of [24, 30, 60, 120]) {
    if (Math.abs(value - (base * 1000) / 1001) < 0.01) return { num: base * 1000, den: 1001 };
  }
  return { num: Math.round(value * 1000), den: 1000 };
}

/** The rate a render uses when none is asked for: the composition's data-fps, else 30. */
export function defaultFps(dataFps: number | undefined): Fps {
  return dataFps ? fpsFromNumber(dataFps) : { num: 30, den: 1 };
}
