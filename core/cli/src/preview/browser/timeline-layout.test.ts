import { describe, expect, it } from 'vitest';
import { clipFrames, rulerTicks, stepZoom, timeAtX, trackRows } from './timeline-layout.js';

const fps10 = { num: 10, den: 1 };

describe('trackRows', () => {
  it('makes one row per track, ascending, with untracked clips last, clips by start', () => {
    const rows = trackRows([
      { key: 'b', trackIndex: 2, start: 1, end: 2 },
      { key: 'a', trackIndex: 0, start: 2, end: 3 },
      { key: 'c', trackIndex: undefined, start: 0, end: 1 },
      { key: 'd', trackIndex: 0, start: 0, end: 2 },
    ]);
    expect(rows.map((r) => [r.label, r.clips.map((c) => c.key)])).toEqual([
      ['Track 0', ['d', 'a']],
      ['Track 2', ['b']],
      ['No track', ['c']],
    ]);
  });
});

describe('rulerTicks', () => {
  it('labels seconds at a step that leaves room, without frame ticks when frames are dense', () => {
    const ticks = rulerTicks(10, 20, fps10);
    expect(ticks.filter((t) => t.major).map((t) => t.label)).toEqual(['0s', '5s', '10s']);
    expect(ticks.some((t) => !t.major)).toBe(false);
  });

  it('adds frame ticks between seconds when zoomed in, labelled with the frame in its second', () => {
    const ticks = rulerTicks(1, 600, fps10);
    expect(ticks.filter((t) => t.major).map((t) => t.t)).toEqual([0, 1]);
    expect(ticks.filter((t) => !t.major).map((t) => t.label)).toEqual(['1f', '2f', '3f', '4f', '5f', '6f', '7f', '8f', '9f']);
    expect(ticks.find((t) => t.label === '3f')?.t).toBeCloseTo(0.3, 12);
  });
});

describe('zoom and pixels', () => {
  it('steps zoom up until a frame would be too wide, and down to fit', () => {
    expect(stepZoom(1, 1, 100, fps10)).toBe(1.5);
    expect(stepZoom(8, 1, 100, fps10)).toBe(8); // 12x would make a frame 120 px wide
    expect(stepZoom(3, -1, 100, fps10)).toBe(2);
    expect(stepZoom(1, -1, 100, fps10)).toBe(1);
  });

  it('maps pixels to time within the composition', () => {
    expect(timeAtX(150, 100, 4)).toBe(1.5);
    expect(timeAtX(-5, 100, 4)).toBe(0);
    expect(timeAtX(900, 100, 4)).toBe(4);
  });
});

describe('clipFrames', () => {
  it('covers the frames whose time is inside [start, end)', () => {
    expect(clipFrames(0, 1, fps10)).toEqual({ first: 0, last: 9 });
    expect(clipFrames(1.5, 2.05, fps10)).toEqual({ first: 15, last: 20 });
    expect(clipFrames(0.3, 0.3 + 0.4, fps10)).toEqual({ first: 3, last: 6 });
  });
});
