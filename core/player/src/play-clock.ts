/**
 * Maps wall-clock time (ms, e.g. a requestAnimationFrame timestamp) to composition time while
 * playing: anchored at the time playback (re)started, wrapped when looping, held at the end otherwise.
 */
export class PlayClock {
  private anchorTime = 0;
  private anchorWallMs = 0;

  /** Playback continues from `t` at wall time `nowMs`. */
  start(t: number, nowMs: number): void {
    this.anchorTime = t;
    this.anchorWallMs = nowMs;
  }

  /** The time to show at `nowMs`; `ended` when a non-looping clock reached `duration`. */
  at(nowMs: number, duration: number, loop: boolean): { time: number; ended: boolean } {
    const t = this.anchorTime + Math.max(0, nowMs - this.anchorWallMs) / 1000;
    if (duration <= 0) return { time: 0, ended: !loop };
    if (t < duration) return { time: t, ended: false };
    if (!loop) return { time: duration, ended: true };
    return { time: t % duration, ended: false };
  }
}
