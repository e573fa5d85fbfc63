/**
 * Counts the frames playback skipped: the player shows the newest time when the page is ready,
 * never a queue of old ones, so when painting is slower than the frame rate the frame numbers
 * shown jump. Shown after playback as "dropped N of M frames".
 */
export class DroppedFrames {
  private last: number | null = null;
  private shown = 0;
  private dropped = 0;

  constructor(private readonly show: (text: string, dropping: boolean) => void) {}

  start(frame: number): void {
    this.last = frame;
    this.shown = 0;
    this.dropped = 0;
    this.show('', false);
  }

  /** A frame was painted while playing at `rate` (negative: backwards). */
  painted(frame: number, rate: number): void {
    if (this.last === null || frame === this.last) return;
    const step = (frame - this.last) * Math.sign(rate || 1);
    // Faster than 1x, frames are meant to be skipped; a jump the other way is a loop, not a drop.
    const meant = Math.max(1, Math.round(Math.abs(rate)));
    if (step > meant) this.dropped += step - meant;
    this.shown += 1;
    this.last = frame;
    const total = this.shown + this.dropped;
    this.show(total > 0 ? `dropped ${this.dropped} of ${total} frames` : '', this.dropped > 0);
  }

  stop(): void {
    this.last = null;
  }

  get count(): number {
    return this.dropped;
  }
}
