import { createHash } from 'node:crypto';
import type { CapturePage } from '@seekframe/engine';
import type { InspectedElement, TimelineInspection } from '@seekframe/runtime';
import { decodeFrame, flatColourOfPixels } from '../render/blank-render.js';
import type { CheckFinding } from './check-report.js';
import { asElement, describeAnimation, secs, type CaptionProbe, type ClipProbe, type MotionPlan, type Mover } from './motion-plan.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MotionCheckResult {
  findings: CheckFinding[];
  sampledTimes: number[];
}

/**
 * Captures the plan's frames through the render's own capture page (seek, then the same
 * screenshot or beginFrame a render takes), reads where each element is at each of them, and
 * decides: a clip outside the frame at every sample is off screen; an element animated while on
 * screen whose area is pixel-identical at every sample does not move; every frame one flat colour
 * is a blank video. Frames are kept encoded and decoded one at a time, so memory stays small.
 */
export async function runMotionCheck(
  page: Pick<CapturePage, 'seekAndCaptureFrame' | 'evaluate'>,
  plan: MotionPlan,
  inspection: TimelineInspection,
  size: { width: number; height: number },
): Promise<MotionCheckResult> {
  const targets = new Map<string, InspectedElement>();
  for (const mover of plan.movers) targets.set(mover.key, mover.element);
  for (const probe of plan.clips) targets.set(probe.key, probe.clip);
  for (const probe of plan.captions) targets.set(probe.key, probe.captions);
  const keys = [...targets.keys()];
  const lookup = keys.map((key) => ({ selector: targets.get(key)!.selector, hosts: targets.get(key)!.hosts }));

  const frames = new Map<number, Buffer>();
  const boxes = new Map<number, Map<string, Box | null>>();
  for (const t of plan.times) {
    frames.set(t, (await page.seekAndCaptureFrame(t)).data);
    const found = (await page.evaluate(readBoxes, lookup)) as Array<Box | null>;
    boxes.set(t, new Map(keys.map((key, i) => [key, found[i] ?? null])));
  }

  const findings: CheckFinding[] = [];
  const offScreen = new Set<number>();
  for (const probe of plan.clips) {
    const seen = probe.times.map((t) => boxes.get(t)?.get(probe.key) ?? null);
    const painted = seen.filter((box): box is Box => box !== null && box.width > 0 && box.height > 0);
    if (painted.length === 0 || painted.some((box) => clipToFrame(box, size) !== null)) continue;
    offScreen.add(probe.index);
    findings.push(offScreenClip(probe, painted[Math.floor(painted.length / 2)]!, size));
  }

  for (const probe of plan.captions) {
    if (probe.captions.clips.some((index) => offScreen.has(index))) continue; // its clip is already reported
    const painted = probe.times
      .map((t) => boxes.get(t)?.get(probe.key) ?? null)
      .filter((box): box is Box => box !== null && box.width > 0 && box.height > 0);
    if (painted.length === 0) findings.push(emptyCaptions(probe));
    else if (!painted.some((box) => clipToFrame(box, size) !== null)) findings.push(offScreenCaptions(probe, painted[0]!, size));
  }

  // Regions first, so each frame is decoded once for every mover that sampled it.
  const regions = new Map<string, Box | null>();
  for (const mover of plan.movers) {
    const union = mover.times
      .map((t) => boxes.get(t)?.get(mover.key))
      .filter((box): box is Box => !!box && box.width > 0 && box.height > 0)
      .reduce<Box | null>((acc, box) => (acc ? unite(acc, box) : box), null);
    regions.set(mover.key, union ? clipToFrame(union, size) : null);
  }
  const hashes = new Map<string, string[]>();
  let blank: string | undefined | null = null; // null: not decided yet; undefined: not blank
  for (const t of plan.times) {
    const rgba = decodeFrame(frames.get(t)!);
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
    frames.delete(t);
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
    if (region === null) {
      findings.push(offScreenMover(mover, size));
      continue;
    }
    const seen = hashes.get(mover.key) ?? [];
    if (seen.length >= 2 && seen.every((hash) => hash === seen[0])) findings.push(staticMover(mover, region!));
  }
  return { findings, sampledTimes: plan.times };
}

/**
 * Runs in the page (serialised by puppeteer: no closures, no helpers): for each element, its box
 * and its descendants' united, in the top document's coordinates (through sub-composition
 * iframes); null when it is not there.
 */
function readBoxes(targets: Array<{ selector: string; hosts: string[] }>): Array<Box | null> {
  const out: Array<Box | null> = [];
  for (const target of targets) {
    let doc: Document | null = document;
    let dx = 0;
    let dy = 0;
    for (const host of target.hosts) {
      const frame: HTMLIFrameElement | null | undefined = doc?.querySelector(host)?.querySelector('iframe');
      if (!frame) {
        doc = null;
        break;
      }
      const at = frame.getBoundingClientRect();
      dx += at.left;
      dy += at.top;
      doc = frame.contentDocument;
    }
    const el = doc?.querySelector(target.selector);
    if (!el) {
      out.push(null);
      continue;
    }
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const node of [el, ...Array.from(el.querySelectorAll('*')).slice(0, 500)]) {
      const r = node.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      x0 = Math.min(x0, r.left);
      y0 = Math.min(y0, r.top);
      x1 = Math.max(x1, r.right);
      y1 = Math.max(y1, r.bottom);
    }
    out.push(x0 === Infinity ? { x: 0, y: 0, width: 0, height: 0 } : { x: x0 + dx, y: y0 + dy, width: x1 - x0, height: y1 - y0 });
  }
  return out;
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
    details: { box, times: probe.times, variable: captions.variable },
  };
}

function offScreenMover(mover: Mover, size: { width: number; height: number }): CheckFinding {
  const first = mover.intervals.reduce((a, b) => (a.start <= b.start ? a : b));
  return {
    check: 'motion',
    code: 'motion/off-screen',
    severity: 'error',
    message: `${mover.element.label} is animated ${first.start.toFixed(2)}-${first.end.toFixed(2)} s by ${describeAnimation(mover.animations[0]!)} but stays outside the ${size.width}x${size.height} frame at every sampled time, so the motion is never seen.`,
    element: mover.element,
    time: { start: first.start, end: first.end },
    file: null,
    fix: "Check where the animation moves it (its from/to values and the element's position): it should cross the frame while its clip is on screen.",
    details: { times: mover.times, animations: mover.animations.map((a) => a.name) },
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
      `but its area (${describeBox(region)}) is identical in the frames at ${mover.times.map((t) => t.toFixed(2)).join(', ')} s.`,
    element: mover.element,
    time: { start: first.start, end: first.end },
    file: null,
    fix: unregistered
      ? 'Register the GSAP timeline in window.__timelines (created with { paused: true }) so every frame seeks it.'
      : `Check that the animation changes something visible on this element and that nothing covers it; scrub to ${first.start.toFixed(2)} s in \`seekframe preview\` to see it.`,
    details: {
      region,
      times: mover.times,
      animations: mover.animations.map((a) => ({ kind: a.kind, name: a.name, start: a.start, end: a.end })),
    },
  };
}
