import { frameAt, frameCount, frameTime, type Fps } from '@seekframe/composition';
import type { SeekframePlayer } from '@seekframe/player';

/** J and L step through these speeds (K stops). */
const SHUTTLE = [1, 2, 4, 8];

/**
 * Frame-exact control of the player: frame N is shown at `frameTime(N, fps)`, the time the
 * render seeks for its frame N. Quick presses add up from the frame still painting. Playback
 * speed, J/K/L shuttle, and the work area (a range of frames playback loops in).
 */
export class Transport {
  fps: Fps = { num: 30, den: 1 };
  ready = false;
  /** The frame asked for while its seek is still painting. */
  private pending: number | null = null;
  private rangeFrames: { in: number; out: number } | null = null;

  constructor(
    private readonly player: SeekframePlayer,
    private readonly shown: (t: number) => void,
  ) {}

  lastFrame(): number {
    return Math.max(0, frameCount(this.player.duration, this.fps) - 1);
  }

  currentFrame(): number {
    return this.pending ?? Math.min(frameAt(this.player.currentTime, this.fps), this.lastFrame());
  }

  /** The time of the frame shown or asked for. */
  currentTime(): number {
    return this.pending !== null ? frameTime(this.pending, this.fps) : this.player.currentTime;
  }

  goToFrame(frame: number): void {
    if (!this.ready) return;
    const target = Math.min(Math.max(0, Math.round(frame)), this.lastFrame());
    this.player.pause();
    this.pending = target;
    this.shown(frameTime(target, this.fps));
    this.player
      .seek(frameTime(target, this.fps))
      .catch(() => undefined)
      .finally(() => {
        if (this.pending === target) this.pending = null;
      });
  }

  step(frames: number): void {
    this.goToFrame(this.currentFrame() + frames);
  }

  /** One second of frames (Shift+arrows). */
  secondFrames(): number {
    return Math.max(1, Math.round(this.fps.num / this.fps.den));
  }

  togglePlay(): void {
    this.pending = null;
    if (this.player.paused) {
      if (this.player.playbackRate < 0) this.player.playbackRate = Math.abs(this.player.playbackRate);
      this.player.play();
    } else this.player.pause();
  }

  /** J (-1), K (0) or L (+1): K stops; J/L play that way, each further press faster. */
  shuttle(direction: -1 | 0 | 1): void {
    this.pending = null;
    if (direction === 0) {
      this.player.pause();
      return;
    }
    const rate = this.player.playbackRate;
    const same = !this.player.paused && Math.sign(rate) === direction;
    const next = same ? (SHUTTLE.find((s) => s > Math.abs(rate)) ?? Math.abs(rate)) : 1;
    this.player.playbackRate = direction * next;
    this.player.play();
  }

  setSpeed(rate: number): void {
    this.player.playbackRate = Math.sign(this.player.playbackRate || 1) * rate;
  }

  /** The work area as frames (inclusive), or null; playback loops inside it. */
  get range(): { in: number; out: number } | null {
    return this.rangeFrames ? { ...this.rangeFrames } : null;
  }

  setRange(range: { in: number; out: number } | null): void {
    const last = this.lastFrame();
    const clean = range ? { in: Math.max(0, Math.min(range.in, last)), out: Math.max(0, Math.min(range.out, last)) } : null;
    this.rangeFrames = clean && clean.out >= clean.in ? clean : null;
    this.player.playRange = this.rangeFrames
      ? { start: frameTime(this.rangeFrames.in, this.fps), end: frameTime(this.rangeFrames.out + 1, this.fps) }
      : null;
  }
}
