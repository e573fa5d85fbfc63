/**
 * Reused message buffers for one capture page's raw frames (canvas capture: 3.1 MB of I420 or
 * 8 MB of BGRA per 1080p frame).
 *
 * Why: a fresh buffer per frame is memory V8 counts as external, and external memory growing by
 * tens of MB a second makes V8 run a full mark-compact of the whole heap every few frames. On 2
 * cores that garbage collection was 4-7 ms of Node's ~11-14 ms per 1080p frame
 * (`bench/capture-cpu.ts --mode canvas`, `--trace-gc`); with buffers handed back and reused it
 * is below 0.5 ms.
 *
 * A buffer is counted: `take` gives it out with one reference, `hold` adds one (the same frame
 * delivered twice: an unchanged frame), `release` drops one, and at zero it goes back on the free
 * list. A buffer that is never released is simply garbage-collected, so a caller that ignores
 * releasing is safe, only slower.
 */
export class FrameBuffers {
  private readonly free: Buffer[] = [];
  private readonly refs = new WeakMap<Buffer, number>();

  /** `size`: the bytes of every frame; `keep`: free buffers kept at most (the rest go to the GC). */
  constructor(
    readonly size: number,
    private readonly keep = 16,
  ) {}

  /** A buffer of `size` bytes with one reference: reused when one is free, else new. */
  take(): Buffer {
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    this.refs.set(buffer, 1);
    return buffer;
  }

  /** One more reference to a buffer from take(); no-op for any other buffer. */
  hold(buffer: Buffer): void {
    const refs = this.refs.get(buffer);
    if (refs !== undefined) this.refs.set(buffer, refs + 1);
  }

  /** Drops one reference; the last one puts the buffer back for a later frame. */
  release(buffer: Buffer): void {
    const refs = this.refs.get(buffer);
    if (refs === undefined) return;
    if (refs > 1) {
      this.refs.set(buffer, refs - 1);
      return;
    }
    this.refs.delete(buffer);
    if (this.free.length < this.keep) this.free.push(buffer);
  }

  /** Frees every kept buffer (the channel closed). */
  clear(): void {
    this.free.length = 0;
  }
}
