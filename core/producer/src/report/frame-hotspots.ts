import type { InspectedClip } from '@seekframe/runtime';

export interface FrameCostInput {
  /** Milliseconds per captured frame, index 0 = `firstFrame`. */
  frameMs: ArrayLike<number>;
  firstFrame: number;
  fps: { num: number; den: number };
  clips: readonly InspectedClip[];
}

export interface SlowFrame {
  frame: number;
  /** Seconds. */
  time: number;
  ms: number;
  /** Labels of the clips on screen in this frame. */
  clips: string[];
}

export interface Hotspot {
  /** The clip's label, e.g. `<div#blur>`. */
  clip: string;
  selector: string;
  /** Sub-composition hosts above it (selectors), `[]` at top level. */
  hosts: string[];
  /** Frames [firstFrame, lastFrame] the clip is on screen, and the same span in seconds. */
  firstFrame: number;
  lastFrame: number;
  start: number;
  end: number;
  /** Median cost of a frame with the clip and of one without it. */
  medianMs: number;
  otherMedianMs: number;
  /** medianMs / otherMedianMs. */
  ratio: number;
  /** Capture time above the other frames' median, summed over the clip's frames. */
  extraMs: number;
  /** extraMs as a share (0-1) of the whole capture time. */
  share: number;
}

export interface FrameCostAnalysis {
  meanMs: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  slowest: SlowFrame[];
  hotspots: Hotspot[];
}

/** A clip is a hotspot when its frames cost at least this many times the others (medians)... */
export const HOTSPOT_RATIO = 2;
/** ...its cheaper frames (first quartile) cost more than 1.5x the others' dearer ones (third quartile)... */
const QUARTILE_GAP = 1.5;
/** ...and the extra time is at least this share of all capture time and this long: worth acting on. */
export const HOTSPOT_SHARE = 0.1;
export const HOTSPOT_MIN_EXTRA_MS = 250;
/**
 * A hotspot becomes a `slow-clip` warning only from this much extra capture time: other
 * processes can make a few frames of a small render slow, never seconds of one clip's frames.
 */
export const SLOW_CLIP_WARNING_MS = 1000;
const MIN_FRAMES = 3;
const MAX_HOTSPOTS = 3;

/**
 * Reads a render's per-frame capture costs against its clips: the slowest frames with the clips
 * on screen in them, and the clips whose frames cost much more than the rest (a heavy filter, a
 * huge shadow, a large image scaled every frame). Medians, not means, so a frame slowed by
 * something else on the machine does not make a clip look expensive. Among nested clips that
 * explain about the same extra time, the narrowest is named: it is the one to look at.
 */
export function analyseFrameCosts(input: FrameCostInput, slowestCount = 5): FrameCostAnalysis {
  const costs = Array.from(input.frameMs);
  const count = costs.length;
  const timeOf = (i: number): number => ((input.firstFrame + i) * input.fps.den) / input.fps.num;
  const visual = input.clips.filter((clip) => clip.kind !== 'audio' && clip.end > clip.start);
  const activeAt = (i: number): InspectedClip[] => visual.filter((clip) => timeOf(i) >= clip.start && timeOf(i) < clip.end);
  const sorted = [...costs].sort((a, b) => a - b);
  const total = costs.reduce((sum, ms) => sum + ms, 0);
  const slowest = costs
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms || a.i - b.i)
    .slice(0, slowestCount)
    .map(({ ms, i }) => ({
      frame: input.firstFrame + i,
      time: round(timeOf(i)),
      ms: round(ms),
      clips: activeAt(i).map((clip) => clip.label),
    }));
  return {
    meanMs: round(count > 0 ? total / count : 0),
    medianMs: round(median(sorted)),
    p90Ms: round(sorted[Math.min(count - 1, Math.floor(count * 0.9))] ?? 0),
    maxMs: round(sorted[count - 1] ?? 0),
    slowest,
    hotspots: findHotspots(costs, total, visual, timeOf, input.firstFrame),
  };
}

function findHotspots(
  costs: number[],
  total: number,
  clips: readonly InspectedClip[],
  timeOf: (i: number) => number,
  firstFrame: number,
): Hotspot[] {
  if (total <= 0) return [];
  const candidates: Array<Hotspot & { frames: number }> = [];
  for (const clip of clips) {
    const inside: number[] = [];
    const outside: number[] = [];
    let first = -1;
    let last = -1;
    costs.forEach((ms, i) => {
      const t = timeOf(i);
      if (t >= clip.start && t < clip.end) {
        inside.push(ms);
        if (first < 0) first = i;
        last = i;
      } else outside.push(ms);
    });
    if (inside.length < MIN_FRAMES || outside.length < MIN_FRAMES) continue;
    const sortedIn = [...inside].sort((a, b) => a - b);
    const sortedOut = [...outside].sort((a, b) => a - b);
    const medianIn = median(sortedIn);
    const medianOut = median(sortedOut);
    // The other frames' median counts as at least 1 ms: CPU time comes in 10 ms ticks, so a cheap
    // frame may read 0, and "70 ms against 0" is not 70,000 times.
    const ratio = medianIn / Math.max(medianOut, 1);
    const extra = inside.reduce((sum, ms) => sum + Math.max(0, ms - medianOut), 0);
    const share = extra / total;
    // Medians and quartiles, not means: a burst of load on the machine slows some frames, not a clip's.
    const separated = quantile(sortedIn, 0.25) >= QUARTILE_GAP * quantile(sortedOut, 0.75);
    if (ratio < HOTSPOT_RATIO || share < HOTSPOT_SHARE || extra < HOTSPOT_MIN_EXTRA_MS || !separated) continue;
    candidates.push({
      clip: clip.label,
      selector: clip.selector,
      hosts: clip.hosts,
      firstFrame: firstFrame + first,
      lastFrame: firstFrame + last,
      start: round(clip.start),
      end: round(clip.end),
      medianMs: round(medianIn),
      otherMedianMs: round(medianOut),
      ratio: round(ratio),
      extraMs: round(extra),
      share: round(share),
      frames: inside.length,
    });
  }
  const chosen: Hotspot[] = [];
  let left = candidates.sort((a, b) => b.extraMs - a.extraMs);
  while (left.length > 0 && chosen.length < MAX_HOTSPOTS) {
    const top = left[0]!;
    const overlapping = left.filter((c) => overlaps(c, top));
    // The narrowest clip that explains most of the same extra time.
    const pick = overlapping.filter((c) => c.extraMs >= 0.8 * top.extraMs).sort((a, b) => a.frames - b.frames)[0]!;
    const { frames: _frames, ...hotspot } = pick;
    chosen.push(hotspot);
    left = left.filter((c) => !overlaps(c, pick) && !overlaps(c, top));
  }
  return chosen;
}

function overlaps(a: { firstFrame: number; lastFrame: number }, b: { firstFrame: number; lastFrame: number }): boolean {
  return a.firstFrame <= b.lastFrame && b.firstFrame <= a.lastFrame;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** One sentence for the render's `slow-clip` warning. */
export function describeHotspot(hotspot: Hotspot, captureMs: number): string {
  return (
    `${hotspot.clip} made the render slow: while it is on screen (frames ${hotspot.firstFrame}-${hotspot.lastFrame}, ${hotspot.start.toFixed(2)}-${hotspot.end.toFixed(2)} s) ` +
    `a frame took ${hotspot.medianMs.toFixed(0)} ms against ${hotspot.otherMedianMs.toFixed(0)} ms elsewhere (${hotspot.ratio.toFixed(1)}x), ` +
    `${(hotspot.extraMs / 1000).toFixed(1)} s of ${(captureMs / 1000).toFixed(1)} s of capture; ` +
    'look at its CSS filters, backdrop-filter, large shadows and blend modes, or images far larger than they are drawn (selector: ' +
    `${[...hotspot.hosts, hotspot.selector].join(' >>> ')})`
  );
}
