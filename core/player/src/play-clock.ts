/** A part of the composition that playback stays in: `[start, end)` seconds. */
export interface PlayRange {
  start: number;
  end: number;
}

/**
 * Maps wall-clock time (ms, e.g. a requestAnimationFrame timestamp) to composition time while
 * playing: anchored at the time playback (re)started, at `rate` seconds per second (negative
 * plays backwards), wrapped when looping or inside a range, held at either end otherwise.
 */
export class PlayClock {
  private anchorTime = 0;
  private anchorWallMs = 0;
  private rate = 1;

  /** Playback continues from `t` at wall time `nowMs`, at `rate` (default 1). */
  start(t: number, nowMs: number, rate = 1): void {
    this.anchorTime = t;
    this.anchorWallMs = nowMs;
    this.rate = rate;
  }

  /**
   * The time to show at `nowMs`; `ended` when a clock that does not loop reached an end.
   * A `range` always loops (it is a work area played over and over).
   */
  at(nowMs: number, duration: number, loop: boolean, range?: PlayRange): { time: number; ended: boolean } {
    const t = this.anchorTime + (Math.max(0, nowMs - this.anchorWallMs) / 1000) * this.rate;
    if (duration <= 0) return { time: 0, ended: !loop };
    const lo = range ? Math.max(0, Math.min(range.start, duration)) : 0;
    const hi = range ? Math.max(lo, Math.min(range.end, duration)) : duration;
    const wraps = loop || range !== undefined;
    if (hi - lo <= 0) return { time: lo, ended: !wraps };
    if (t >= lo && t < hi) return { time: t, ended: false };
    if (!wraps) return t < lo ? { time: lo, ended: true } : { time: hi, ended: true };
    const span = hi - lo;
    return { time: lo + ((((t - lo) % span) + span) % span), ended: false };
  }
}
