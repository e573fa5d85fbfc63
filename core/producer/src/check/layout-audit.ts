import type { FrameBox, TextBlock } from '@seekframe/runtime';
import type { CheckFinding } from './check-report.js';
import { intersect, roundBox, unionOf } from './contrast-audit.js';
import { asElement, elementKey } from './motion-plan.js';

/** Pixels text may stick out sideways before it counts (sub-pixel layout, italic overhang). */
const SIDE_TOLERANCE = 1;
/**
 * Share of a line box's height cut from its top and bottom before comparing it: a line box runs
 * from the font's ascent to its descent, well beyond most glyphs, so a tight line-height or a
 * snug box would otherwise count as overflow or overlap.
 */
const LINE_INSET = 0.15;
/** Text over text counts when the glyph areas overlap by this share of the smaller block (and 16 px²). */
const OVERLAP_SHARE = 0.1;

interface Sides {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Candidate {
  finding: CheckFinding;
  /** Pixels of the problem: the worst time wins. */
  size: number;
  times: number[];
}

/**
 * The layout audit over the text blocks read at each sampled time: text that runs out of the box
 * it belongs in or is cut by an ancestor that clips (`layout/text-overflow`), text cut by the
 * frame's edge (`layout/text-cut`), and text over other text (`layout/text-overlap`). Only text at
 * rest is judged (not inside an element animated at that time), seen (opacity 0.1 or more, not
 * covered, partly inside the frame) and upright. Each problem is reported once, at the sampled
 * time it is worst, with the other times it was seen.
 */
export function layoutFindings(texts: ReadonlyMap<number, readonly TextBlock[]>, size: { width: number; height: number }): CheckFinding[] {
  const found = new Map<string, Candidate>();
  const keep = (key: string, t: number, amount: number, make: () => CheckFinding): void => {
    const seen = found.get(key);
    if (seen) {
      seen.times.push(t);
      if (amount <= seen.size) return;
    }
    found.set(key, { finding: make(), size: amount, times: [...(seen?.times ?? []), ...(seen ? [] : [t])] });
  };
  const frame: FrameBox = { x: 0, y: 0, width: size.width, height: size.height };
  for (const [t, blocks] of [...texts].sort((a, b) => a[0] - b[0])) {
    const judged = blocks.filter((block) => atRest(block) && visibleIn(block, frame));
    for (const block of judged) {
      const key = elementKey(block);
      const edge = beyond(visibleLines(block, frame), frame);
      if (worst(edge) > 0) keep(`cut:${key}`, t, worst(edge), () => cutByFrame(block, t, edge, size));
      if (block.truncates) continue;
      const overflow = overflowOf(block, frame);
      if (overflow) keep(`overflow:${key}`, t, worst(overflow.sides), () => overflowFinding(block, t, overflow));
    }
    for (let i = 0; i < judged.length; i++) {
      for (let j = i + 1; j < judged.length; j++) {
        const a = judged[i]!;
        const b = judged[j]!;
        if (a.text === b.text) continue; // the same words twice: an echo or shadow effect
        const overlap = overlapOf(a, b);
        if (!overlap) continue;
        const [first, second] = elementKey(a) < elementKey(b) ? [a, b] : [b, a];
        keep(`overlap:${elementKey(first)}|${elementKey(second)}`, t, overlap.area, () => overlapFinding(first, second, t, overlap.box));
      }
    }
  }
  return [...found.values()].map(({ finding, times }) => {
    const others = times.filter((t) => t !== finding.time!.start);
    if (others.length === 0) return finding;
    return {
      ...finding,
      message: `${finding.message} Also at ${others.map((t) => t.toFixed(2)).join(', ')} s.`,
      details: { ...finding.details, times: [...times].sort((a, b) => a - b) },
    };
  });
}

function atRest(block: TextBlock): boolean {
  return !block.moving && !block.rotated && !block.covered && block.opacity >= 0.1;
}

function visibleIn(block: TextBlock, frame: FrameBox): boolean {
  return visibleLines(block).some((line) => area(intersect(line, frame)) > 0);
}

/**
 * The line boxes, cut by the ancestors that clip, insets applied vertically. A clip as big as the
 * frame (a stage that clips, `overflow: hidden` on the root element) is the frame's own edge: with
 * `frame`, it is left out, so what passes the edge is still seen as past it.
 */
function visibleLines(block: TextBlock, frame?: FrameBox): FrameBox[] {
  const clip = block.clip && !(frame && covers(block.clip, frame)) ? block.clip : null;
  return block.lines
    .map(inset)
    .map((line) => (clip ? intersect(line, clip) : line))
    .filter((line) => area(line) > 0);
}

function inset(line: FrameBox): FrameBox {
  const cut = line.height * LINE_INSET;
  return { x: line.x, y: line.y + cut, width: line.width, height: line.height - 2 * cut };
}

/** How far `boxes` reach past each side of `outer` (0 within tolerance). */
function beyond(boxes: readonly FrameBox[], outer: FrameBox): Sides {
  if (boxes.length === 0) return { left: 0, top: 0, right: 0, bottom: 0 };
  const u = unionOf(boxes);
  const past = (v: number): number => (v > SIDE_TOLERANCE ? Math.round(v) : 0);
  return {
    left: past(outer.x - u.x),
    top: past(outer.y - u.y),
    right: past(u.x + u.width - (outer.x + outer.width)),
    bottom: past(u.y + u.height - (outer.y + outer.height)),
  };
}

function worst(sides: Sides): number {
  return Math.max(sides.left, sides.top, sides.right, sides.bottom);
}

/** Text past its box, or cut by an ancestor that clips; undefined when it fits. */
function overflowOf(block: TextBlock, frame: FrameBox): { sides: Sides; by: string; cut: boolean } | undefined {
  const lines = block.lines.map(inset);
  if (block.box) {
    const sides = beyond(lines, block.box);
    if (worst(sides) > 0) return { sides, by: block.box.label, cut: block.box.clips };
  }
  // A clip as big as the frame (a stage that clips) cuts at the frame's edge: that is text-cut.
  if (block.clip && !covers(block.clip, frame)) {
    const sides = beyond(lines, block.clip);
    if (worst(sides) > 0)
      return { sides, by: block.hosts.length > 0 ? 'its sub-composition host or an ancestor' : 'an ancestor', cut: true };
  }
  return undefined;
}

function covers(outer: FrameBox, inner: FrameBox): boolean {
  return (
    outer.x <= inner.x + 1 &&
    outer.y <= inner.y + 1 &&
    outer.x + outer.width >= inner.x + inner.width - 1 &&
    outer.y + outer.height >= inner.y + inner.height - 1
  );
}

function overlapOf(a: TextBlock, b: TextBlock): { area: number; box: FrameBox } | undefined {
  const la = visibleLines(a).map(inset);
  const lb = visibleLines(b).map(inset);
  const parts: FrameBox[] = [];
  let total = 0;
  for (const x of la) {
    for (const y of lb) {
      const part = intersect(x, y);
      if (area(part) <= 0) continue;
      parts.push(part);
      total += area(part);
    }
  }
  const smaller = Math.min(sum(la), sum(lb));
  if (total < 16 || total < OVERLAP_SHARE * smaller) return undefined;
  return { area: Math.round(total), box: unionOf(parts) };
}

function sum(boxes: readonly FrameBox[]): number {
  return boxes.reduce((total, box) => total + area(box), 0);
}

function area(box: FrameBox): number {
  return Math.max(0, box.width) * Math.max(0, box.height);
}

function describeSides(sides: Sides): string {
  return (Object.entries(sides) as Array<[keyof Sides, number]>)
    .filter(([, px]) => px > 0)
    .map(([side, px]) => `${px} px past the ${side}`)
    .join(', ');
}

function quote(block: TextBlock): string {
  return `${block.label} ("${block.text}")`;
}

function cutByFrame(block: TextBlock, t: number, sides: Sides, size: { width: number; height: number }): CheckFinding {
  return {
    check: 'layout',
    code: 'layout/text-cut',
    severity: 'warning',
    message: `${quote(block)} is cut by the edge of the ${size.width}x${size.height} frame at ${t.toFixed(2)} s: ${describeSides(sides)} edge.`,
    element: asElement(block),
    time: { start: t, end: t },
    file: null,
    fix: 'Move it inward, make it smaller, or let it wrap (max-width); if it is meant to slide out of the frame, that motion is animated, and this is not reported then.',
    region: { time: t, ...roundBox(unionOf(block.lines)) },
    details: { ...sides },
  };
}

function overflowFinding(block: TextBlock, t: number, overflow: { sides: Sides; by: string; cut: boolean }): CheckFinding {
  const what = overflow.cut ? `is cut by ${overflow.by}, which clips it` : `runs out of its box ${overflow.by}`;
  return {
    check: 'layout',
    code: 'layout/text-overflow',
    severity: 'warning',
    message: `${quote(block)} ${what} at ${t.toFixed(2)} s: ${describeSides(overflow.sides)} edge.`,
    element: asElement(block),
    time: { start: t, end: t },
    file: null,
    fix: `Give the text room: a wider or taller ${overflow.by}, a smaller font-size, or wrapping (max-width); if the cut is meant, end it with text-overflow: ellipsis.`,
    region: { time: t, ...roundBox(unionOf(block.lines)) },
    details: { ...overflow.sides, box: overflow.by, clipped: overflow.cut },
  };
}

function overlapFinding(a: TextBlock, b: TextBlock, t: number, box: FrameBox): CheckFinding {
  const r = roundBox(box);
  return {
    check: 'layout',
    code: 'layout/text-overlap',
    severity: 'warning',
    message: `${quote(a)} and ${quote(b)} overlap at ${t.toFixed(2)} s: ${r.width}x${r.height} px of their text at x ${r.x}, y ${r.y}.`,
    element: asElement(a),
    time: { start: t, end: t },
    file: null,
    fix: `Give each its own space (position, margin, or a shorter text); if one should cover the other, give it an opaque background.`,
    // Both texts outlined: the overlap alone is often a sliver.
    region: { time: t, ...roundBox(unionOf([...a.lines, ...b.lines])) },
    details: { other: asElement(b), overlap: r },
  };
}
