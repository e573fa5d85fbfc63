import { describe, expect, it } from 'vitest';
import type { InspectedClip } from '@seekframe/runtime';
import { analyseFrameCosts, describeHotspot } from './frame-hotspots.js';

const FPS = { num: 10, den: 1 };

function clip(selector: string, start: number, end: number, kind: InspectedClip['kind'] = 'element'): InspectedClip {
  return { label: `<div${selector}>`, selector, hosts: [], kind, start, end };
}

/** 40 frames at 10 fps: 10 ms each, `slow` ms for the frames in [from, to). */
function costs(slow: number, from: number, to: number, noise: (i: number) => number = () => 0): number[] {
  return Array.from({ length: 40 }, (_, i) => (i >= from && i < to ? slow : 10) + noise(i));
}

describe('analyseFrameCosts', () => {
  it('names the clip whose frames cost several times the rest, with its frames and share', () => {
    const clips = [clip('#title', 0, 4), clip('#blur', 1, 2), clip('#logo', 2.5, 4)];
    const result = analyseFrameCosts({ frameMs: costs(60, 10, 20), firstFrame: 0, fps: FPS, clips });
    expect(result.hotspots).toHaveLength(1);
    expect(result.hotspots[0]).toMatchObject({
      clip: '<div#blur>',
      selector: '#blur',
      firstFrame: 10,
      lastFrame: 19,
      medianMs: 60,
      otherMedianMs: 10,
      ratio: 6,
      extraMs: 500,
    });
    expect(result.hotspots[0]!.share).toBeCloseTo(500 / 900, 3);
    expect(result.slowest[0]).toMatchObject({ frame: 10, time: 1, ms: 60, clips: ['<div#title>', '<div#blur>'] });
  });

  it('prefers the narrowest of nested clips that explain the same extra time', () => {
    const clips = [clip('#scene', 0.8, 2.2), clip('#blur', 1, 2)];
    const result = analyseFrameCosts({ frameMs: costs(60, 10, 20), firstFrame: 0, fps: FPS, clips });
    expect(result.hotspots.map((h) => h.selector)).toEqual(['#blur']);
  });

  it('ignores a single slow frame (a warm-up, a busy moment) and frame noise: medians decide', () => {
    const clips = [clip('#a', 0, 1), clip('#b', 1, 2), clip('#c', 2, 4)];
    const frameMs = costs(10, 0, 0, (i) => (i === 0 ? 400 : i === 25 ? 300 : (i * 7) % 5));
    const result = analyseFrameCosts({ frameMs, firstFrame: 0, fps: FPS, clips });
    expect(result.hotspots).toEqual([]);
    expect(result.slowest.slice(0, 2).map((f) => f.frame)).toEqual([0, 25]);
  });

  it('does not blame a clip for a small extra cost, nor audio clips at all', () => {
    const clips = [clip('#tiny', 1, 1.2), clip('#music', 1, 2, 'audio')];
    const result = analyseFrameCosts({ frameMs: costs(30, 10, 12).concat([]), firstFrame: 0, fps: FPS, clips });
    expect(result.hotspots).toEqual([]);
    const loud = analyseFrameCosts({ frameMs: costs(60, 10, 20), firstFrame: 0, fps: FPS, clips });
    expect(loud.hotspots).toEqual([]);
  });

  it('does not blame a clip whose frames are only sometimes slow (bursts of load), nor a few milliseconds', () => {
    const clips = [clip('#blur', 1, 2)];
    const bursty = analyseFrameCosts({
      frameMs: costs(10, 0, 0, (i) => (i >= 10 && i < 20 && i % 2 === 0 ? 90 : 0)),
      firstFrame: 0,
      fps: FPS,
      clips,
    });
    expect(bursty.hotspots).toEqual([]);
    const cheap = analyseFrameCosts({
      frameMs: Array.from({ length: 40 }, (_, i) => (i >= 10 && i < 20 ? 9 : 3)),
      firstFrame: 0,
      fps: FPS,
      clips,
    });
    expect(cheap.hotspots).toEqual([]);
  });

  it('says what to look at, with the frames, times, costs and the selector', () => {
    const [hotspot] = analyseFrameCosts({
      frameMs: costs(60, 10, 20),
      firstFrame: 0,
      fps: FPS,
      clips: [{ ...clip('#blur', 1, 2), hosts: ['#scene'], label: '[scene] <div#blur>' }],
    }).hotspots;
    expect(describeHotspot(hotspot!, 900)).toBe(
      '[scene] <div#blur> made the render slow: while it is on screen (frames 10-19, 1.00-2.00 s) a frame took 60 ms against 10 ms elsewhere (6.0x), 0.5 s of 0.9 s of capture; ' +
        'look at its CSS filters, backdrop-filter, large shadows and blend modes, or images far larger than they are drawn (selector: #scene >>> #blur)',
    );
  });

  it('places the frames of a chunk at their own times', () => {
    const clips = [clip('#blur', 3, 4)];
    const frameMs = Array.from({ length: 20 }, (_, i) => (i >= 10 ? 50 : 10));
    const result = analyseFrameCosts({ frameMs, firstFrame: 20, fps: FPS, clips });
    expect(result.hotspots[0]).toMatchObject({ firstFrame: 30, lastFrame: 39 });
    expect(result.slowest[0]).toMatchObject({ frame: 30, time: 3 });
  });
});
