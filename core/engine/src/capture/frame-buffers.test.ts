import { describe, expect, it } from 'vitest';
import { FrameBuffers } from './frame-buffers.js';

describe('FrameBuffers', () => {
  it('reuses a buffer once its last reference is released, and never one still held', () => {
    const buffers = new FrameBuffers(16);
    const a = buffers.take();
    expect(a.length).toBe(16);
    buffers.hold(a); // delivered twice (an unchanged frame)
    buffers.release(a);
    const b = buffers.take();
    expect(b).not.toBe(a); // a is still held once
    buffers.release(a);
    expect(buffers.take()).toBe(a);
    buffers.release(b);
    buffers.release(b); // a second release of the same reference changes nothing
    const c = buffers.take();
    expect(c).toBe(b);
    expect(buffers.take()).not.toBe(b);
  });

  it('ignores buffers it did not give out and keeps at most `keep` free buffers', () => {
    const buffers = new FrameBuffers(4, 1);
    const foreign = Buffer.alloc(4);
    buffers.release(foreign);
    expect(buffers.take()).not.toBe(foreign);
    const [x, y] = [buffers.take(), buffers.take()];
    buffers.release(x);
    buffers.release(y); // over `keep`: left to the garbage collector
    expect(buffers.take()).toBe(x);
    expect(buffers.take()).not.toBe(y);
  });
});
