import { describe, expect, it } from 'vitest';
import type { InspectedAnimation, InspectedCaptions, InspectedClip, TimelineInspection } from '@seekframe/runtime';
import { planMotion, visibleWindow } from './motion-plan.js';
import { sampleTimes } from './sample-times.js';

const FPS = { num: 10, den: 1 };
const el = (selector: string) => ({ label: `<div${selector}>`, selector, hosts: [] as string[] });
const clip = (selector: string, start: number, end: number): InspectedClip => ({ ...el(selector), kind: 'element', start, end });
const anim = (selector: string, start: number, end: number, extra: Partial<InspectedAnimation> = {}): InspectedAnimation => ({
  kind: 'css-animation',
  name: 'rise',
  properties: 'opacity',
  target: el(selector),
  start,
  end,
  duration: end - start,
  clips: [],
  ...extra,
});
const captions = (selector: string, segments: Array<[number, number]>, clips: number[] = []): InspectedCaptions => ({
  ...el(selector),
  variable: 'talk',
  segments: segments.map(([start, end]) => ({ start, end })),
  clips,
});
const plan = (inspection: Partial<TimelineInspection>, maxSamples = 60) =>
  planMotion({ duration: 4, clips: [], animations: [], ...inspection }, { fps: FPS, compositionId: 'main', maxSamples });

describe('sampleTimes', () => {
  it('snaps fractions of each interval to frames inside it, unique and sorted', () => {
    expect(sampleTimes([{ start: 0.5, end: 1.5 }], [0.05, 0.35, 0.65, 0.95], FPS)).toEqual([0.5, 0.8, 1.1, 1.4]);
    expect(sampleTimes([{ start: 1, end: 1.15 }], [0.05, 0.95], FPS)).toEqual([1, 1.1]);
    expect(sampleTimes([{ start: 1, end: 1.05 }], [0.05, 0.95], FPS)).toEqual([1]);
  });
});

describe('visibleWindow', () => {
  it('is the intersection of the clips that hold the element and the composition', () => {
    const clips = [clip('#scene', 1, 3), clip('#card', 2, 5)];
    expect(visibleWindow({ clips: [0, 1] }, { clips, duration: 4 })).toEqual({ start: 2, end: 3 });
    expect(visibleWindow({ clips: [] }, { clips, duration: 4 })).toEqual({ start: 0, end: 4 });
  });
});

describe('planMotion', () => {
  it('plans frames for an element animated while on screen, and frames inside each clip', () => {
    const result = plan({ clips: [clip('#scene', 1, 3)], animations: [anim('#title', 1, 2, { clips: [0] })] });
    expect(result.findings).toEqual([]);
    expect(result.movers).toHaveLength(1);
    // At 5, 35, 65 and 95% of its span, but the clip's frame at 1.2 s is near enough to 1.3 s to serve it.
    expect(result.movers[0]).toMatchObject({ key: '#title', intervals: [{ start: 1, end: 2 }], times: [1, 1.2, 1.6, 1.9] });
    expect(result.clips[0]).toMatchObject({ key: '#scene', times: [1.2, 2, 2.7] });
    // Theirs, and three over the whole composition for the blank check.
    expect(result.times).toEqual([0.4, 1, 1.2, 1.6, 1.9, 2, 2.7, 3.5]);
  });

  it('a paused GSAP timeline not registered is an error and is not sampled; a running one is a warning and is', () => {
    const frozen = plan({
      animations: [
        anim('#box', 0, 1.5, {
          kind: 'gsap',
          name: 'gsap timeline (not in window.__timelines)',
          properties: 'x',
          registered: false,
          paused: true,
        }),
      ],
    });
    expect(frozen.findings.map((f) => [f.code, f.severity])).toEqual([['motion/gsap-unregistered', 'error']]);
    expect(frozen.findings[0]!.fix).toContain('window.__timelines["main"] = tl');
    expect(frozen.movers).toEqual([]);
    const running = plan({
      animations: [
        anim('#box', 0, 1.5, { kind: 'gsap', name: 'gsap tween (not in window.__timelines)', registered: false, paused: false }),
      ],
    });
    expect(running.findings.map((f) => [f.code, f.severity])).toEqual([['motion/gsap-unregistered', 'warning']]);
    expect(running.movers).toHaveLength(1);
  });

  it('flags an animation of zero length, one over before its clip, one starting after it, one cut by it', () => {
    const clips = [clip('#scene', 2, 3)];
    const result = plan({
      clips,
      animations: [
        anim('#baked', 0, 0, { duration: 0 }),
        anim('#early', 0, 0.5, { clips: [0] }),
        anim('#late', 3.5, 4, { clips: [0] }),
        anim('#cut', 1.5, 2.5, { clips: [0] }),
      ],
    });
    expect(result.findings.map((f) => [f.code, f.element?.selector, f.severity])).toEqual([
      ['motion/zero-duration', '#baked', 'warning'],
      ['motion/ends-before-clip', '#early', 'warning'],
      ['motion/starts-after-clip', '#late', 'warning'],
      ['motion/starts-before-clip', '#cut', 'warning'],
    ]);
    expect(result.findings[1]!.fix).toContain('add 2.00 s to its animation-delay');
    // The visible part of the cut animation is still checked for motion.
    expect(result.movers.map((m) => [m.key, m.intervals])).toEqual([['#cut', [{ start: 2, end: 2.5 }]]]);
  });

  it('ignores animations of properties that paint nothing by themselves (a transition of visibility)', () => {
    const result = plan({
      animations: [
        anim('#clip', 1, 1.3, { kind: 'css-transition', name: 'visibility', properties: 'visibility' }),
        anim('#z', 0, 1, { properties: 'zIndex, pointerEvents' }),
      ],
    });
    expect(result.findings).toEqual([]);
    expect(result.movers).toEqual([]);
  });

  it('merges the animations of one element, names sub-composition elements through their hosts', () => {
    const inside = { ...el('#dot'), hosts: ['#child'], label: '[kid] <div#dot>' };
    const result = plan({ animations: [anim('#a', 0, 1), anim('#a', 0.5, 2, { name: 'spin' }), { ...anim('', 1, 2), target: inside }] });
    expect(result.movers.map((m) => [m.key, m.intervals])).toEqual([
      ['#a', [{ start: 0, end: 2 }]],
      ['#child >>> #dot', [{ start: 1, end: 2 }]],
    ]);
  });

  it('samples a caption element in the middle of its first segments on screen; segments off screen are findings', () => {
    const clips = [clip('#scene', 1, 3)];
    const result = plan({
      clips,
      captions: [
        captions('#all', [
          [0.2, 0.6],
          [1, 1.4],
          [2, 2.2],
          [3, 3.6],
        ]),
        captions(
          '#some',
          [
            [0.2, 0.6],
            [1.5, 2],
            [3.5, 5],
          ],
          [0],
        ),
        captions(
          '#none',
          [
            [0, 0.5],
            [3.2, 3.8],
          ],
          [0],
        ),
        captions('#silent', []),
      ],
    });
    expect(result.captions.map((p) => [p.key, p.times])).toEqual([
      ['#all', [0.4, 1.2, 2.1]],
      ['#some', [1.7]],
    ]);
    expect(result.findings.map((f) => [f.code, f.element?.selector, f.severity, f.time])).toEqual([
      ['motion/captions-cut', '#some', 'warning', { start: 0.2, end: 5 }],
      ['motion/captions-never-shown', '#none', 'error', { start: 0, end: 3.8 }],
    ]);
    expect(result.findings[0]!.details).toMatchObject({
      lost: [
        { start: 0.2, end: 0.6 },
        { start: 3.5, end: 5 },
      ],
    });
    expect(result.times).toEqual(expect.arrayContaining([0.4, 1.2, 2.1, 1.7]));
    // Past the composition's end (4 s) counts as off screen too: a whole-video caption element.
    expect(
      plan({
        captions: [
          captions('#long', [
            [1, 2],
            [4.5, 5],
          ]),
        ],
      }).findings.map((f) => f.code),
    ).toEqual(['motion/captions-cut']);
  });

  it('fits the budget: frames shared between staggered elements, fewer samples per element, then fewer elements', () => {
    const animations = Array.from({ length: 12 }, (_, i) => anim(`#e${i}`, i * 0.3, i * 0.3 + 0.8));
    const roomy = plan({ animations }, 200);
    expect(roomy.movers.every((m) => m.times.length === 4)).toBe(true);
    // Twelve overlapping spans share frames: far fewer than 12 x 4.
    expect(roomy.times.length).toBeLessThan(30);
    const shared = plan({ animations }, 20);
    expect(shared.skippedMovers).toBe(0);
    expect(shared.times.length).toBeLessThanOrEqual(20);
    for (const mover of shared.movers) {
      // Each still sees its span's start and end.
      const [span] = mover.intervals;
      expect(mover.times[0]! - span!.start).toBeLessThanOrEqual(0.3 * (span!.end - span!.start));
      expect(span!.end - mover.times.at(-1)!).toBeLessThanOrEqual(0.3 * (span!.end - span!.start));
    }
    const tight = plan({ animations }, 8);
    expect(tight.times.length).toBeLessThanOrEqual(8);
    expect(tight.movers.length + tight.skippedMovers).toBe(12);
    expect(tight.skippedMovers).toBeGreaterThan(0);
    // A caption element keeps one sample when the budget is tight.
    const words = captions('#cap', [
      [0.2, 0.6],
      [1, 1.4],
      [2, 2.2],
    ]);
    expect(plan({ animations, captions: [words] }, 200).captions[0]!.times).toHaveLength(3);
    expect(plan({ animations, captions: [words] }, 8).captions[0]!.times).toEqual([0.4]);
  });
});
