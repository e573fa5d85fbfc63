import type { InspectedAnimation, InspectedCaptions, InspectedClip, InspectedElement, TimelineInspection } from '@seekframe/runtime';
import type { CheckFinding } from './check-report.js';
import { allTimes, sampleTimes, shareTimes } from './sample-times.js';

export interface Interval {
  start: number;
  end: number;
}

/** An element the timeline says moves while it is on screen: its frames there must differ. */
export interface Mover {
  key: string;
  element: InspectedElement;
  /** On-screen spans in which it is animated, merged. */
  intervals: Interval[];
  animations: InspectedAnimation[];
  /** Clips that contain it (indices into the inspection's clips). */
  clips: number[];
  /** Frame times sampled for it, ascending. */
  times: number[];
}

/** A clip the motion check looks at: is it inside the frame at any time it is on screen? */
export interface ClipProbe {
  index: number;
  key: string;
  clip: InspectedClip;
  times: number[];
}

/** A caption element, sampled while its transcript shows text on screen: it must paint text inside the frame. */
export interface CaptionProbe {
  key: string;
  captions: InspectedCaptions;
  /** Spans in which a segment is active and the element's clips are on screen. */
  shown: Interval[];
  times: number[];
}

export interface MotionPlan {
  /** What the timeline alone shows (nothing to capture for these). */
  findings: CheckFinding[];
  movers: Mover[];
  clips: ClipProbe[];
  captions: CaptionProbe[];
  /** Every frame time to capture, ascending, unique. */
  times: number[];
  /** Movers left out to stay within the sample budget. */
  skippedMovers: number;
}

export interface MotionPlanOptions {
  fps: { num: number; den: number };
  /** The composition's id (for the `window.__timelines[...]` fix). */
  compositionId: string;
  /** Most frames to capture. */
  maxSamples: number;
}

/**
 * Properties that change no pixel by themselves (or flip at one instant): an animation of only
 * these is no motion. A `transition: all` on a clip makes a transition of `visibility` each time
 * the runtime shows or hides the clip.
 */
const NOT_MOTION = /^(visibility|display|pointer-events|cursor|user-select|content-visibility|will-change|z-index)$/;

/** Where in each on-screen span a mover is sampled, and a clip. */
const MOVER_FRACTIONS = [0.05, 0.35, 0.65, 0.95];
const CLIP_FRACTIONS = [0.1, 0.5, 0.9];

/** Only the element's names, for a finding (a clip or caption element carries more). */
export function asElement({ label, selector, hosts }: InspectedElement): InspectedElement {
  return { label, selector, hosts };
}

export function elementKey(element: InspectedElement): string {
  return [...element.hosts, element.selector].join(' >>> ');
}

/**
 * Reads the page's timeline for motion that cannot show, and plans the frames that prove the
 * rest: a GSAP timeline that nothing seeks, a CSS animation of zero length, an animation over
 * before its element's clip starts (the video shows its end state) or starting after it ends;
 * then, for every element animated while on screen, frame times inside that span (its pixels
 * there must change), and for every clip, times inside the clip (it must be inside the frame).
 */
export function planMotion(inspection: TimelineInspection, options: MotionPlanOptions): MotionPlan {
  const frame = options.fps.den / options.fps.num;
  const findings: CheckFinding[] = [];
  const movers = new Map<string, Mover>();
  const reported = new Set<string>();
  const once = (id: string, finding: CheckFinding): void => {
    if (reported.has(id)) return;
    reported.add(id);
    findings.push(finding);
  };

  for (const animation of inspection.animations) {
    const properties = animation.properties.split(/,\s*/).filter(Boolean);
    if (properties.length > 0 && properties.every((p) => NOT_MOTION.test(p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)))) continue;
    const key = elementKey(animation.target);
    const window = visibleWindow(animation, inspection);
    if (window.end - window.start < frame) continue; // never on screen: the runtime's clip warnings cover it
    const time = { start: round(animation.start), end: round(animation.end) };
    if (animation.kind === 'gsap' && animation.registered === false) {
      once(`gsap:${key}`, unregisteredFinding(animation, time, options.compositionId));
      if (animation.paused) continue;
    }
    if (animation.duration === 0) {
      once(`zero:${key}:${animation.name}`, {
        check: 'motion',
        code: 'motion/zero-duration',
        // The end state from the start may be what was meant: a warning (see check-rules.ts).
        severity: 'warning',
        message: `${describeAnimation(animation)} on ${animation.target.label} lasts 0 s, so the element shows its end state from ${secs(animation.start)} on and never moves.`,
        element: animation.target,
        time,
        file: null,
        fix: 'Give the animation a length (e.g. `animation-duration: 0.6s`); if only the end state was meant, set it in CSS without an animation.',
        details: { animation: animation.name, kind: animation.kind, properties: animation.properties },
      });
      continue;
    }
    if (animation.end <= window.start + frame / 2) {
      const late = window.start - animation.start;
      once(`before:${key}:${animation.name}`, {
        check: 'motion',
        code: 'motion/ends-before-clip',
        // Only the end state is seen; whether the movement was meant to be is the author's call.
        severity: 'warning',
        message: `${describeAnimation(animation)} on ${animation.target.label} runs ${span(animation)}, but ${animation.target.label} is on screen only from ${secs(window.start)}: the video shows only its end state.`,
        element: animation.target,
        time,
        file: null,
        fix:
          animation.kind === 'gsap'
            ? `Move the tween ${late.toFixed(2)} s later on its timeline (the position parameter), or put it on a timeline registered under the clip's data-composition-id, which starts with the clip.`
            : `Start it when the element appears: add ${late.toFixed(2)} s to its animation-delay (CSS animations start when the page loads, not when their clip starts).`,
        details: { animation: animation.name, kind: animation.kind, visible: window },
      });
      continue;
    }
    if (animation.start >= window.end - frame / 2) {
      once(`after:${key}:${animation.name}`, {
        check: 'motion',
        code: 'motion/starts-after-clip',
        severity: 'warning',
        message: `${describeAnimation(animation)} on ${animation.target.label} starts at ${secs(animation.start)}, after ${animation.target.label} left the screen at ${secs(window.end)}: it is never seen.`,
        element: animation.target,
        time,
        file: null,
        fix: `Start it while the element is on screen (${span(window)}), or make its clip longer (data-duration).`,
        details: { animation: animation.name, kind: animation.kind, visible: window },
      });
      continue;
    }
    const on = { start: Math.max(animation.start, window.start), end: Math.min(animation.end, window.end) };
    if (animation.start < window.start - frame && animation.end < window.end) {
      once(`cut:${key}:${animation.name}`, {
        check: 'motion',
        code: 'motion/starts-before-clip',
        severity: 'warning',
        message: `${describeAnimation(animation)} on ${animation.target.label} runs ${span(animation)}, but ${animation.target.label} appears at ${secs(window.start)}: its first ${(window.start - animation.start).toFixed(2)} s are never seen.`,
        element: animation.target,
        time,
        file: null,
        fix:
          animation.kind === 'gsap'
            ? `Move the tween ${(window.start - animation.start).toFixed(2)} s later on its timeline.`
            : `Add ${(window.start - animation.start).toFixed(2)} s to its animation-delay, so it starts with its clip.`,
        details: { animation: animation.name, kind: animation.kind, visible: window },
      });
    }
    let mover = movers.get(key);
    if (!mover) movers.set(key, (mover = { key, element: animation.target, intervals: [], animations: [], clips: [], times: [] }));
    mover.intervals.push(on);
    mover.animations.push(animation);
    for (const index of animation.clips) if (!mover.clips.includes(index)) mover.clips.push(index);
  }

  const captionProbes: CaptionProbe[] = [];
  for (const captions of inspection.captions ?? []) {
    const probe = planCaptions(captions, inspection, frame);
    findings.push(...probe.findings);
    if (probe.shown.length > 0) captionProbes.push({ key: elementKey(captions), captions, shown: probe.shown, times: [] });
  }

  const probes: ClipProbe[] = inspection.clips
    .map((clip, index) => ({ index, key: elementKey(clip), clip, times: [] as number[] }))
    .filter((probe) => probe.clip.kind !== 'audio' && probe.clip.end - probe.clip.start >= frame);
  const moverList = [...movers.values()]
    .map((mover) => ({ ...mover, intervals: merge(mover.intervals) }))
    .sort((a, b) => a.intervals[0]!.start - b.intervals[0]!.start);

  // Fewer samples per element until the plan fits the budget; then fewer elements. Frames are
  // shared: a frame near where one mover wants a sample serves every mover it falls inside, so a
  // staggered list of twenty tweens needs a handful of frames, not eighty.
  const fixed = (): number[] => [...probes, ...captionProbes].flatMap((probe) => probe.times);
  let kept: Mover[] = [];
  let unjudged = 0;
  for (const [moverFractions, clipFractions, captionSegments, reach] of [
    [MOVER_FRACTIONS, CLIP_FRACTIONS, 3, 0.15],
    [[0.05, 0.5, 0.95], [0.5], 1, 0.2],
    [[0.05, 0.95], [0.5], 1, 0.25],
  ] as const) {
    for (const probe of probes) probe.times = sampleTimes([probe.clip], clipFractions, options.fps);
    // The middle of the first segments: a word is lit there (and the blank check sees the captions).
    for (const probe of captionProbes) probe.times = sampleTimes(probe.shown.slice(0, captionSegments), [0.5], options.fps);
    ({ kept, unjudged } = shareTimes(moverList, allTimes([], fixed(), inspection.duration, options.fps), moverFractions, reach, options));
    if (kept.length + unjudged === moverList.length) break;
  }
  return {
    findings,
    movers: kept,
    clips: probes,
    captions: captionProbes,
    times: allTimes(kept, fixed(), inspection.duration, options.fps),
    skippedMovers: moverList.length - kept.length - unjudged,
  };
}

/**
 * When a caption element shows text: inside a segment of its transcript while its clips are on
 * screen. A transcript none of whose segments falls there is never seen (an error); segments
 * outside it (before the clip, after it or after the composition's end) are lost (a warning).
 */
function planCaptions(
  captions: InspectedCaptions,
  inspection: TimelineInspection,
  frame: number,
): { shown: Interval[]; findings: CheckFinding[] } {
  const window = visibleWindow(captions, inspection);
  const outside = (segment: Interval): boolean => segment.end <= window.start + frame / 2 || segment.start >= window.end - frame / 2;
  const shown = captions.segments
    .filter((segment) => !outside(segment))
    .map((segment) => ({ start: Math.max(segment.start, window.start), end: Math.min(segment.end, window.end) }));
  const lost = captions.segments.filter(outside);
  if (captions.segments.length === 0 || lost.length === 0) return { shown, findings: [] };
  const all = { start: round(captions.segments[0]!.start), end: round(captions.segments.at(-1)!.end) };
  const where = `${captions.label} is on screen ${span(window)}${window.end >= inspection.duration ? ' (the composition ends there)' : ''}`;
  const sub = captions.hosts.length > 0 ? ", counted from the sub-composition's start" : '';
  const finding: CheckFinding =
    shown.length === 0
      ? {
          check: 'motion',
          code: 'motion/captions-never-shown',
          severity: 'error',
          message: `The transcript "${captions.variable}" shown by ${captions.label} runs ${span(all)}, but ${where}: no caption is ever seen.`,
          element: asElement(captions),
          time: all,
          file: null,
          fix: `Give ${captions.label} (or the clip around it) data-start/data-duration that cover the transcript, or fix the transcript's times: they are composition seconds${sub}.`,
          details: { variable: captions.variable, visible: window, segments: captions.segments.length },
        }
      : {
          check: 'motion',
          code: 'motion/captions-cut',
          severity: 'warning',
          message: `${lost.length} of ${captions.segments.length} segments of the transcript "${captions.variable}" (the first at ${span(lost[0]!)}) fall outside the time ${where}: they are never seen.`,
          element: asElement(captions),
          time: { start: round(lost[0]!.start), end: round(lost.at(-1)!.end) },
          file: null,
          fix: `Make the clip of ${captions.label} (or the composition's data-duration) cover ${span(all)}, or trim the transcript (a --captions file still lists the ones before the composition's end, so it would not match the video).`,
          details: {
            variable: captions.variable,
            visible: window,
            lost: lost.map((segment) => ({ start: segment.start, end: segment.end })),
          },
        };
  return { shown, findings: [finding] };
}

/** Where the target of an animation can be seen: inside every clip that holds it, and the composition. */
export function visibleWindow(
  animation: Pick<InspectedAnimation, 'clips'>,
  inspection: Pick<TimelineInspection, 'clips' | 'duration'>,
): Interval {
  let start = 0;
  let end = inspection.duration;
  for (const index of animation.clips) {
    const clip = inspection.clips[index];
    if (!clip) continue;
    start = Math.max(start, clip.start);
    end = Math.min(end, clip.end);
  }
  return { start, end: Math.max(start, end) };
}

function merge(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const interval of sorted) {
    const last = out.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else out.push({ ...interval });
  }
  return out.sort((a, b) => b.end - b.start - (a.end - a.start));
}

function unregisteredFinding(animation: InspectedAnimation, time: Interval, compositionId: string): CheckFinding {
  const id = animation.target.hosts.length > 0 ? "<the sub-composition's data-composition-id>" : compositionId;
  const what = `${animation.name.startsWith('gsap timeline') ? 'A GSAP timeline' : 'A GSAP tween'} that is not in window.__timelines animates ${animation.target.label}${animation.properties ? ` (${animation.properties})` : ''} ${span(animation)}`;
  return {
    check: 'motion',
    code: 'motion/gsap-unregistered',
    severity: animation.paused ? 'error' : 'warning',
    message: animation.paused
      ? `${what}, but it is paused and nothing seeks it: the video shows ${animation.target.label} frozen.`
      : `${what}; it moves only because GSAP's own clock follows the render's, so seeking backwards (the preview's scrubber) cannot move it back.`,
    element: animation.target,
    time,
    file: null,
    fix: `Create it paused and register it: \`const tl = gsap.timeline({ paused: true }); … window.__timelines = window.__timelines || {}; window.__timelines["${id}"] = tl;\` The runtime seeks every registered timeline to each frame's time.`,
    details: { animation: animation.name, paused: animation.paused === true, properties: animation.properties },
  };
}

export function describeAnimation(animation: Pick<InspectedAnimation, 'kind' | 'name' | 'properties' | 'registered'>): string {
  switch (animation.kind) {
    case 'gsap':
      return animation.registered
        ? `The GSAP tween of ${animation.name}${animation.properties ? ` (${animation.properties})` : ''}`
        : `A GSAP tween not in window.__timelines`;
    case 'css-animation':
      return `CSS animation "${animation.name}"`;
    case 'css-transition':
      return `The CSS transition of ${animation.name}`;
    case 'web-animation':
      return `Web Animation ${animation.name}`;
  }
}

function span(interval: Interval): string {
  return `${interval.start.toFixed(2)}-${interval.end.toFixed(2)} s`;
}

export function secs(t: number): string {
  return `${t.toFixed(2)} s`;
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}
