import type { FrameBox, TextBlock } from '@seekframe/runtime';
import type { CheckFinding } from './check-report.js';
import { asElement } from './motion-plan.js';

/** WCAG 2 AA: 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold). */
export const AA_TEXT = 4.5;
export const AA_LARGE_TEXT = 3;
/** The share of glyph pixels allowed below the measured ratio: the ratio is their 10th percentile. */
const PERCENTILE = 0.1;
/** A pixel whose RGB channels differ by more than this (summed) between the two captures is glyph. */
const GLYPH_DIFF = 24;
/** More pixels than this in one block are sampled on a grid. */
const MAX_PIXELS = 200_000;

export interface ContrastSample {
  element: { label: string; selector: string; hosts: string[] };
  text: string;
  time: number;
  /** Contrast that 90% of the glyph pixels reach against what is behind them. */
  ratio: number;
  required: number;
  large: boolean;
  /** The text's lines, united, in frame pixels. */
  box: FrameBox;
  /** The fill and the median colour behind the glyphs, as #rrggbb. */
  colour: string;
  background: string;
  /** Glyph pixels measured (0: none told apart from the background, the whole line boxes were). */
  glyphPixels: number;
}

/**
 * Contrast of one text block at one time: `shown` is the frame, `hidden` the same frame with
 * every text fill transparent. Glyph pixels are where the two differ; behind each is `hidden`'s
 * pixel, and the text's colour (its fill with its alpha and opacity, composited over that pixel)
 * is compared with it by the WCAG formula. When no pixel differs, the text is the colour of what is
 * behind it, and the whole line boxes are compared. undefined when nothing can be said: the lines
 * are outside the frame, or what is behind them is transparent (an overlay rendered with alpha).
 */
export function measureContrast(
  block: TextBlock,
  shown: Uint8Array,
  hidden: Uint8Array,
  size: { width: number; height: number },
  time: number,
): ContrastSample | undefined {
  if (!block.color) return undefined;
  const [cr, cg, cb, ca] = block.color;
  const alpha = ca * block.opacity;
  const glyph: number[] = [];
  const all: number[] = [];
  let transparent = 0;
  const rects = block.lines.map((line) => pixelRect(block.clip ? intersect(line, block.clip) : line, size)).filter((r) => r !== null);
  const total = rects.reduce((sum, r) => sum + r.width * r.height, 0);
  if (total === 0) return undefined;
  const step = Math.max(1, Math.ceil(Math.sqrt(total / MAX_PIXELS)));
  for (const r of rects) {
    for (let y = r.y; y < r.y + r.height; y += step) {
      for (let x = r.x; x < r.x + r.width; x += step) {
        const i = (y * size.width + x) * 4;
        if (hidden[i + 3]! < 250) {
          transparent++;
          continue;
        }
        const diff = Math.abs(shown[i]! - hidden[i]!) + Math.abs(shown[i + 1]! - hidden[i + 1]!) + Math.abs(shown[i + 2]! - hidden[i + 2]!);
        all.push(i);
        if (diff > GLYPH_DIFF) glyph.push(i);
      }
    }
  }
  if (all.length === 0 || transparent > all.length) return undefined;
  const pixels = glyph.length >= 4 ? glyph : all;
  const ratios = pixels
    .map((i) => {
      const br = hidden[i]!;
      const bg = hidden[i + 1]!;
      const bb = hidden[i + 2]!;
      const text = luminance(alpha * cr + (1 - alpha) * br, alpha * cg + (1 - alpha) * bg, alpha * cb + (1 - alpha) * bb);
      return contrastRatio(text, luminance(br, bg, bb));
    })
    .sort((a, b) => a - b);
  const large = block.fontSize >= 24 || (block.fontSize >= 18.66 && block.fontWeight >= 700);
  const median = medianColour(hidden, pixels);
  return {
    element: asElement(block),
    text: block.text,
    time,
    ratio: Math.round(ratios[Math.floor(PERCENTILE * (ratios.length - 1))]! * 100) / 100,
    required: large ? AA_LARGE_TEXT : AA_TEXT,
    large,
    box: unionOf(block.lines),
    colour: hex(cr, cg, cb),
    background: median,
    glyphPixels: pixels === glyph ? glyph.length : 0,
  };
}

/** `contrast/low` for each block measured below its WCAG AA ratio. */
export function contrastFindings(samples: readonly ContrastSample[]): CheckFinding[] {
  return samples
    .filter((s) => s.ratio < s.required)
    .map((s) => ({
      check: 'contrast',
      code: 'contrast/low',
      severity: 'warning',
      message:
        `${s.element.label} ("${s.text}") has contrast ${s.ratio.toFixed(2)}:1 against the pixels behind it at ${s.time.toFixed(2)} s ` +
        `(its fill ${s.colour} over ${s.background}); WCAG AA asks ${s.required}:1 for ${s.large ? 'large ' : ''}text.`,
      element: s.element,
      time: { start: s.time, end: s.time },
      file: null,
      fix: `Make the text and what is behind it differ more in lightness (a darker or lighter ${s.colour}, a scrim or shadow behind it), or make it larger (24 px, or 18.66 px bold, needs only 3:1).`,
      region: { time: s.time, ...roundBox(s.box) },
      details: { ratio: s.ratio, required: s.required, colour: s.colour, background: s.background, glyphPixels: s.glyphPixels },
    }));
}

/** WCAG 2 relative luminance of an sRGB colour (0-255 channels). */
export function luminance(r: number, g: number, b: number): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function medianColour(rgba: Uint8Array, pixels: readonly number[]): string {
  const channel = (offset: number): number => {
    const values = pixels.map((i) => rgba[i + offset]!).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] ?? 0;
  };
  return hex(channel(0), channel(1), channel(2));
}

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function pixelRect(box: FrameBox, size: { width: number; height: number }): FrameBox | null {
  const x0 = Math.max(0, Math.round(box.x));
  const y0 = Math.max(0, Math.round(box.y));
  const x1 = Math.min(size.width, Math.round(box.x + box.width));
  const y1 = Math.min(size.height, Math.round(box.y + box.height));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

export function intersect(a: FrameBox, b: FrameBox): FrameBox {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y),
  };
}

export function unionOf(boxes: readonly FrameBox[]): FrameBox {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export function roundBox(box: FrameBox): FrameBox {
  return { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
}
