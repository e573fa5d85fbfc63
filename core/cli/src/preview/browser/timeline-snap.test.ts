import { describe, expect, it } from 'vitest';
import { dragFrames, nearestSnap } from './timeline-snap.js';

const base = { fps: { num: 10, den: 1 }, frameCount: 40, pxPerSecond: 100, snaps: [] as number[] };

describe('dragFrames', () => {
  it('moves by whole frames, keeping the length, inside the composition', () => {
    expect(dragFrames({ ...base, mode: 'move', startFrame: 20, endFrame: 30, delta: 0.31 })).toEqual({
      startFrame: 23,
      endFrame: 33,
      snappedTo: undefined,
    });
    expect(dragFrames({ ...base, mode: 'move', startFrame: 20, endFrame: 30, delta: -5 })).toMatchObject({ startFrame: 0, endFrame: 10 });
  });

  it('snaps an edge to a point within the radius, and not beyond it', () => {
    // The start would land at 2.33 s; the playhead at 2.4 s is 7 px away (radius 8).
    expect(dragFrames({ ...base, mode: 'move', startFrame: 20, endFrame: 30, delta: 0.33, snaps: [2.4], radiusPx: 8 })).toEqual({
      startFrame: 24,
      endFrame: 34,
      snappedTo: 2.4,
    });
    expect(
      dragFrames({ ...base, mode: 'move', startFrame: 20, endFrame: 30, delta: 0.33, snaps: [2.4], radiusPx: 5 }).snappedTo,
    ).toBeUndefined();
    // The end edge snaps too: it ends at 3.5 s.
    expect(dragFrames({ ...base, mode: 'move', startFrame: 20, endFrame: 30, delta: 0.47, snaps: [3.5] })).toMatchObject({
      startFrame: 25,
      endFrame: 35,
    });
  });

  it('trims either edge, never below one frame', () => {
    expect(dragFrames({ ...base, mode: 'trim-start', startFrame: 20, endFrame: 30, delta: 0.2 })).toMatchObject({
      startFrame: 22,
      endFrame: 30,
    });
    expect(dragFrames({ ...base, mode: 'trim-start', startFrame: 20, endFrame: 30, delta: 3 })).toMatchObject({ startFrame: 29 });
    expect(dragFrames({ ...base, mode: 'trim-end', startFrame: 20, endFrame: 30, delta: -0.4 })).toMatchObject({
      startFrame: 20,
      endFrame: 26,
    });
    expect(dragFrames({ ...base, mode: 'trim-end', startFrame: 20, endFrame: 30, delta: 5 })).toMatchObject({ endFrame: 40 });
  });
});

describe('nearestSnap', () => {
  it('picks the closest point in reach', () => {
    expect(nearestSnap(1, [0.95, 1.03, 2], 100, 6)).toBe(1.03);
    expect(nearestSnap(1, [2], 100, 6)).toBeUndefined();
  });
});
