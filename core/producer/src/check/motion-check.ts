import { createHash } from 'node:crypto';
import type { CapturePage } from '@seekframe/engine';
import type { InspectedElement, TextBlock, TimelineInspection } from '@seekframe/runtime';
import { decodeFrame, flatColourOfPixels } from '../render/blank-render.js';
import type { CheckFinding } from './check-report.js';
import { roundBox, type ContrastSample } from './contrast-audit.js';
import { sampleFrames } from './frame-sampler.js';
import {
  asElement,
  describeAnimation,
  elementKey,
  secs,
  type CaptionProbe,
  type ClipProbe,
  type MotionPlan,
  type Mover,
} from './motion-plan.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MotionCheckResult {
  findings: CheckFinding[];
  sampledTimes: number[];
  /** The text blocks read at each time (the first pass only; empty otherwise). */
  texts: Map<number, TextBlock[]>;
  /** Contrast measurements (the first pass only). */
  contrast: ContrastSample[];
}

/**
 * Captures the plan's frames through the render's own capture page (seek, then the same
 * screenshot or beginFrame a render takes), reads where each element paints and what its animated
 * values are at each of them, and decides. Only what is certainly wrong is an error:
 * - a clip, an animated element or a caption element that paints something, but whose painted
 *   boxes over all its samples, united, stay outside the frame, is off screen (a box of zero size,
 *   an SVG line, is judged by its stroke; one that paints nothing at all is not judged);
 * - an element whose animated values differ between its samples while the pixels of its painted
 *   area are identical in all of them does not move on screen (values that do not change within
 *   the composition, a long period or a step not reached yet, are no motion to show);
 * - every frame one flat colour is a blank video.
 * Frames are kept encoded and decoded one at a time, so memory stays small.
 */
export async function runMotionCheck(
  page: Pick<CapturePage, 'seekAndCaptureFrame' | 'evaluate'>,
  plan: MotionPlan,
  inspection: TimelineInspection,
  size: { width: number; height: number },
  options: { audits?: boolean; onFrame?: (t: number, frame: Buffer) => void | Promise<void> } = {},
): Promise<MotionCheckResult> {
  const targets = new Map<string, { element: InspectedElement; properties: string[] }>();
  for (const mover of plan.movers) targets.set(mover.key, { element: mover.element, properties: moverProperties(mover) });
  for (const probe of plan.clips) if (!targets.has(probe.key)) targets.set(probe.key, { element: probe.clip, properties: [] });
  for (const probe of plan.captions) if (!targets.has(probe.key)) targets.set(probe.key, { element: probe.captions, properties: [] });
  // The elements of what the timeline alone showed: located too, so each finding has a place in the frame.
  for (const finding of plan.findings) {
    if (finding.element && !targets.has(elementKey(finding.element)))
      targets.set(elementKey(finding.element), { element: finding.element, properties: [] });
  }
  const keys = [...targets.keys()];
  const request = keys.map((key) => {
    const { element, properties } = targets.get(key)!;
    return { selector: element.selector, hosts: element.hosts, properties };
  });
  const sampled = await sampleFrames(page, plan.times, request, inspection, {
    size,
    audits: options.audits ?? false,
    ...(options.onFrame ? { onFrame: options.onFrame } : {}),
  });
  const at = (t: number, key: string): { box: Box | null; values: string } | null =>
    sampled.probes.get(t)?.targets[keys.indexOf(key)] ?? null;
  const painted = (times: readonly number[], key: string): Box[] =>
    times.map((t) => at(t, key)?.box ?? null).filter((box): box is Box => box !== null && box.width > 0 && box.height > 0);

  const findings: CheckFinding[] = [];
  const offScreen = new Set<number>();
  for (const probe of plan.clips) {
    const boxes = painted(probe.times, probe.key);
    if (boxes.length === 0 || clipToFrame(boxes.reduce(unite), size) !== null) continue;
    offScreen.add(probe.index);
    findings.push(offScreenClip(probe, boxes[Math.floor(boxes.length / 2)]!, size));
  }

  for (const probe of plan.captions) {
    if (probe.captions.clips.some((index) => offScreen.has(index))) continue; // its clip is already reported
    const boxes = painted(probe.times, probe.key);
    if (boxes.length === 0) findings.push(emptyCaptions(probe));
    else if (clipToFrame(boxes.reduce(unite), size) === null) findings.push(offScreenCaptions(probe, boxes[0]!, size));
  }

  // Regions first, so each frame is decoded once for every mover that sampled it.
  const regions = new Map<string, Box | null | undefined>();
  for (const mover of plan.movers) {
    const boxes = painted(mover.times, mover.key);
    // undefined: it paints nothing at any sample (nothing to judge); null: it paints, outside the frame.
    regions.set(mover.key, boxes.length === 0 ? undefined : clipToFrame(boxes.reduce(unite), size));
  }
  const hashes = new Map<string, string[]>();
  let blank: string | undefined | null = null; // null: not decided yet; undefined: not blank
  for (const t of plan.times) {
    const rgba = decodeFrame(sampled.frames.get(t)!);
    if (!rgba) continue;
    if (blank !== undefined) {
      const colour = flatColourOfPixels(rgba);
      blank = colour !== undefined && (blank === null || blank === colour) ? colour : undefined;
    }
    for (const mover of plan.movers) {
      const region = regions.get(mover.key);
      if (!region || !mover.times.includes(t)) continue;
      hashes.set(mover.key, [...(hashes.get(mover.key) ?? []), hashRegion(rgba, size.width, region)]);
    }
    sampled.frames.delete(t);
  }

  if (typeof blank === 'string' && plan.times.length > 1) {
    findings.push({
      check: 'motion',
      code: 'motion/blank',
      severity: 'error',
      message: `Every sampled frame (${plan.times.length}, from ${secs(plan.times[0]!)} to ${secs(plan.times.at(-1)!)}) is one flat colour (${blank}): the video would be blank.`,
      element: null,
      time: { start: 0, end: inspection.duration },
      file: null,
      fix: 'Check the page findings (a script that failed, a missing file), that the clips fall inside the composition duration, and that the content is inside the frame.',
      details: { colour: blank, times: plan.times },
    });
  }

  for (const mover of plan.movers) {
    if (mover.clips.some((index) => offScreen.has(index))) continue; // its clip is already reported
    const region = regions.get(mover.key);
    if (region === undefined) continue;
    if (region === null) {
      findings.push(offScreenMover(mover, painted(mover.times, mover.key)[0]!, size));
      continue;
    }
    const values = mover.times.map((t) => at(t, mover.key)?.values);
    if (values.every((v) => v === values[0])) continue; // its values do not change here: no motion to show
    const seen = hashes.get(mover.key) ?? [];
    if (seen.length >= 2 && seen.every((hash) => hash === seen[0])) findings.push(staticMover(mover, region));
  }
  for (const finding of plan.findings) {
    if (!finding.element || finding.region) continue;
    const key = elementKey(finding.element);
    const from = finding.time?.start ?? 0;
    const nearest = [...plan.times].sort((a, b) => Math.abs(a - from) - Math.abs(b - from));
    const t = nearest.find((time) => painted([time], key).length > 0);
    if (t !== undefined) finding.region = { time: t, ...roundBox(painted([t], key)[0]!) };
  }
  const texts = new Map<number, TextBlock[]>();
  for (const [t, probe] of sampled.probes) if (probe.texts.length > 0) texts.set(t, probe.texts);
  return { findings, sampledTimes: plan.times, texts, contrast: sampled.contrast };
}

/** The property names a mover's animations change (CSS and GSAP names alike). */
function moverProperties(mover: Mover): string[] {
  return [...new Set(mover.animations.flatMap((a) => a.properties.split(/,\s*/).filter(Boolean)))];
}

function unite(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/** The whole pixels of `box` inside the frame, or null when none are. */
export function clipToFrame(box: Box, size: { width: number; height: number }): Box | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(size.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(size.height, Math.ceil(box.y + box.height));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** A digest of the RGBA pixels of `region` (whole pixels, inside the frame). */
export function hashRegion(rgba: Uint8Array, width: number, region: Box): string {
  const hash = createHash('sha1');
  for (let y = region.y; y < region.y + region.height; y++) {
    const row = (y * width + region.x) * 4;
    hash.update(rgba.subarray(row, row + region.width * 4));
  }
  return hash.digest('hex');
}

function describeBox(box: Box): string {
  return `x ${Math.round(box.x)}..${Math.round(box.x + box.width)}, y ${Math.round(box.y)}..${Math.round(box.y + box.height)}`;
}

function offScreenClip(probe: ClipProbe, box: Box, size: { width: number; height: number }): CheckFinding {
  const { clip } = probe;
  return {
    check: 'motion',
    code: 'motion/off-screen',
    severity: 'error',
    message: `${clip.label} is on screen ${clip.start.toFixed(2)}-${clip.end.toFixed(2)} s (its clip) but outside the ${size.width}x${size.height} frame at every sampled time (its box: ${describeBox(box)}).`,
    element: asElement(clip),
    time: { start: clip.start, end: clip.end },
    file: null,
    fix: `Move it into the frame (its left/top, margins or transform place it at ${describeBox(box)}), or remove it if it is not meant to be seen.`,
    region: { time: probe.times[Math.floor(probe.times.length / 2)]!, ...roundBox(box) },
    details: { box, times: probe.times },
  };
}

function emptyCaptions(probe: CaptionProbe): CheckFinding {
  const { captions } = probe;
  return {
    check: 'motion',
    code: 'motion/captions-empty',
    // A warning: hiding the burned-in captions (and keeping the --captions file) may be meant.
    severity: 'warning',
    message: `${captions.label} shows the transcript "${captions.variable}", but nothing of it has a size at ${probe.times.map((t) => t.toFixed(2)).join(', ')} s, while a segment is active and the element is on screen: no caption appears in the video.`,
    element: asElement(captions),
    time: { start: probe.shown[0]!.start, end: probe.shown[0]!.end },
    file: null,
    fix: `If the captions should be in the video, check the CSS of ${captions.label} and its parents (display, font-size, a width that is not 0); scrub to ${probe.times[0]!.toFixed(2)} s in \`seekframe preview\` to see it.`,
    details: { variable: captions.variable, times: probe.times },
  };
}

function offScreenCaptions(probe: CaptionProbe, box: Box, size: { width: number; height: number }): CheckFinding {
  const { captions } = probe;
  return {
    check: 'motion',
    code: 'motion/off-screen',
    severity: 'error',
    message: `${captions.label} shows the transcript "${captions.variable}" but its words are outside the ${size.width}x${size.height} frame at every sampled time (${describeBox(box)}).`,
    element: asElement(captions),
    time: { start: probe.shown[0]!.start, end: probe.shown[0]!.end },
    file: null,
    fix: `Move it into the frame (its position, margins or transform place it at ${describeBox(box)}).`,
    region: { time: probe.times[0]!, ...roundBox(box) },
    details: { box, times: probe.times, variable: captions.variable },
  };
}

function offScreenMover(mover: Mover, box: Box, size: { width: number; height: number }): CheckFinding {
  const first = mover.intervals.reduce((a, b) => (a.start <= b.start ? a : b));
  return {
    check: 'motion',
    code: 'motion/off-screen',
    severity: 'error',
    message: `${mover.element.label} is animated ${first.start.toFixed(2)}-${first.end.toFixed(2)} s by ${describeAnimation(mover.animations[0]!)} but paints outside the ${size.width}x${size.height} frame at every sampled time (at ${mover.times[0]!.toFixed(2)} s: ${describeBox(box)}), so the motion is never seen.`,
    element: mover.element,
    time: { start: first.start, end: first.end },
    file: null,
    fix: "Check where the animation moves it (its from/to values and the element's position): it should cross the frame while its clip is on screen.",
    region: { time: mover.times[0]!, ...roundBox(box) },
    details: { box, times: mover.times, animations: mover.animations.map((a) => a.name) },
  };
}

function staticMover(mover: Mover, region: Box): CheckFinding {
  const first = mover.intervals.reduce((a, b) => (a.start <= b.start ? a : b));
  const animation = mover.animations[0]!;
  const unregistered = animation.kind === 'gsap' && animation.registered === false;
  return {
    check: 'motion',
    code: 'motion/static',
    severity: 'error',
    message:
      `${mover.element.label} is animated ${first.start.toFixed(2)}-${first.end.toFixed(2)} s by ${describeAnimation(animation)}${animation.properties && animation.kind !== 'gsap' ? ` (${animation.properties})` : ''}, ` +
      `and its animated values change between the frames at ${mover.times.map((t) => t.toFixed(2)).join(', ')} s, but the pixels of its area (${describeBox(region)}) are identical in all of them.`,
    element: mover.element,
    time: { start: first.start, end: first.end },
    file: null,
    fix: unregistered
      ? 'Register the GSAP timeline in window.__timelines (created with { paused: true }) so every frame seeks it.'
      : `Check that the animation changes something visible on this element and that nothing covers it; scrub to ${first.start.toFixed(2)} s in \`seekframe preview\` to see it.`,
    region: { time: mover.times[0]!, ...region },
    details: {
      region,
      times: mover.times,
      animations: mover.animations.map((a) => ({ kind: a.kind, name: a.name, start: a.start, end: a.end })),
    },
  };
}
