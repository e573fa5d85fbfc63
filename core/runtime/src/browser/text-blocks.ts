import type { FrameBox, TextBlock } from '../runtime-types.js';
import { describeElement } from './clip-timeline.js';
import { cssPath } from './css-path.js';
import { isRendered, ownTextRects } from './painted-box.js';

/** Elements whose text is never on screen. */
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TITLE', 'HEAD', 'OPTION', 'TEXTAREA']);
/** A page with more text than this is cut here: enough for any frame of a video. */
const MAX_BLOCKS = 400;
/** A box this share of the frame or more is the stage, not a box the text belongs in. */
const STAGE_SHARE = 0.95;

/**
 * Every element of `doc` with text of its own that is laid out and not hidden, as the layout and
 * contrast audits read it, in this document's viewport pixels. `moving` are elements animated at
 * this time: their text is marked, since a block half-way through an entry is not at rest.
 */
export function textBlocks(doc: Document, moving: readonly Element[]): TextBlock[] {
  const win = doc.defaultView;
  if (!win || !doc.body) return [];
  const frame = { width: win.innerWidth, height: win.innerHeight };
  const blocks: TextBlock[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    if (blocks.length >= MAX_BLOCKS) break;
    if (NOT_TEXT.has(el.tagName.toUpperCase()) || el.closest('[data-seekframe-overlay]')) continue;
    const own = ownText(el);
    if (!own || !isRendered(el)) continue;
    const svgText = el instanceof SVGTextContentElement;
    const lines = svgText ? [el.getBoundingClientRect()] : ownTextRects(el);
    if (lines.length === 0 || lines.every((r) => r.width <= 0.5 || r.height <= 0.5)) continue;
    const style = win.getComputedStyle(el);
    blocks.push({
      label: describeElement(el),
      selector: cssPath(el),
      hosts: [],
      text: own.length > 60 ? `${own.slice(0, 59)}…` : own,
      lines: lines.map(toBox),
      fontSize: parseFloat(style.fontSize) || 0,
      fontWeight: Number(style.fontWeight) || 400,
      color: fillColour(el, style, svgText),
      opacity: opacityChain(el),
      box: boxOf(el, frame),
      clip: clipOf(el),
      truncates: truncates(el),
      rotated: rotated(el),
      covered: covered(el, lines),
      moving: moving.some((m) => m.contains(el)),
    });
  }
  return blocks;
}

function ownText(el: Element): string {
  let text = '';
  for (const child of Array.from(el.childNodes)) if (child.nodeType === 3) text += child.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

function toBox(r: DOMRect): FrameBox {
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}

/** The computed style of every element from `el` up to the root, nearest first. */
function* ancestry(el: Element): Generator<[Element, CSSStyleDeclaration]> {
  const win = el.ownerDocument.defaultView!;
  for (let node: Element | null = el; node; node = node.parentElement) yield [node, win.getComputedStyle(node)];
}

function opacityChain(el: Element): number {
  let opacity = 1;
  for (const [, style] of ancestry(el)) opacity *= Number(style.opacity) || 0;
  return opacity;
}

/** The one colour the glyphs are filled with, or null when no single colour says it. */
function fillColour(el: Element, style: CSSStyleDeclaration, svgText: boolean): TextBlock['color'] {
  for (const [, s] of ancestry(el)) {
    if (s.mixBlendMode !== 'normal' || s.filter !== 'none') return null;
  }
  if (svgText) {
    const fill = /^(rgb|#|color\(|oklch|oklab|lab|lch|hsl|hwb)/.test(style.fill) ? parseColour(el.ownerDocument, style.fill) : null;
    return fill && fill[3] > 0 && style.stroke === 'none' ? fill : null;
  }
  const clip = style.getPropertyValue('-webkit-background-clip') || style.backgroundClip;
  // A gradient or image fill, or an outline (a stroke is read against the fill, not the background).
  if (/\btext\b/.test(clip) || (parseFloat(style.getPropertyValue('-webkit-text-stroke-width')) || 0) > 0) return null;
  const colour = parseColour(el.ownerDocument, style.getPropertyValue('-webkit-text-fill-color') || style.color);
  return colour && colour[3] > 0 ? colour : null;
}

const colourCache = new Map<string, [number, number, number, number] | null>();

/** Any CSS colour as sRGB bytes and alpha, as a canvas paints it (oklch, color(), named colours). */
function parseColour(doc: Document, value: string): [number, number, number, number] | null {
  const cached = colourCache.get(value);
  if (cached !== undefined) return cached;
  const canvas = doc.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  let parsed: [number, number, number, number] | null = null;
  if (ctx) {
    ctx.fillStyle = '#00000000';
    ctx.fillStyle = value;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
    // Canvas stores premultiplied pixels: undo it for a translucent colour.
    parsed = a === 0 ? [0, 0, 0, 0] : [Math.round((r * 255) / a), Math.round((g * 255) / a), Math.round((b * 255) / a), a / 255];
  }
  colourCache.set(value, parsed);
  return parsed;
}

function paintsBox(style: CSSStyleDeclaration): boolean {
  const background = style.backgroundColor;
  if (background && !/^(transparent|rgba\(.*,\s*0\))$/.test(background)) return true;
  if (style.backgroundImage && style.backgroundImage !== 'none') return true;
  return ['Top', 'Right', 'Bottom', 'Left'].some(
    (side) =>
      (parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) || 0) > 0 &&
      style.getPropertyValue(`border-${side.toLowerCase()}-style`) !== 'none',
  );
}

function clipsOverflow(style: CSSStyleDeclaration): boolean {
  return style.overflowX !== 'visible' || style.overflowY !== 'visible' || /\bpaint\b|\bstrict\b|\bcontent\b/.test(style.contain);
}

function boxOf(el: Element, frame: { width: number; height: number }): TextBlock['box'] {
  for (const [node, style] of ancestry(el)) {
    if (node === node.ownerDocument.documentElement || node === node.ownerDocument.body) return null;
    const clips = clipsOverflow(style);
    if (!clips && !paintsBox(style)) continue;
    const r = node.getBoundingClientRect();
    if (r.width * r.height >= STAGE_SHARE * frame.width * frame.height) return null;
    return { ...toBox(r), label: describeElement(node), clips };
  }
  return null;
}

function clipOf(el: Element): FrameBox | null {
  let clip: { left: number; top: number; right: number; bottom: number } | null = null;
  // Its own overflow clips its text too (a typewriter's width, a masked line).
  for (const [node, style] of ancestry(el)) {
    // The root and body clip at the frame's edge, which the frame itself does.
    if (node === node.ownerDocument.documentElement || node === node.ownerDocument.body) break;
    if (!clipsOverflow(style)) continue;
    const r = node.getBoundingClientRect();
    clip = clip
      ? {
          left: Math.max(clip.left, r.left),
          top: Math.max(clip.top, r.top),
          right: Math.min(clip.right, r.right),
          bottom: Math.min(clip.bottom, r.bottom),
        }
      : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  return clip
    ? { x: clip.left, y: clip.top, width: Math.max(0, clip.right - clip.left), height: Math.max(0, clip.bottom - clip.top) }
    : null;
}

function truncates(el: Element): boolean {
  for (const [, style] of ancestry(el)) {
    if (style.textOverflow === 'ellipsis' || (style.getPropertyValue('-webkit-line-clamp') || 'none') !== 'none') return true;
    if (clipsOverflow(style) || paintsBox(style)) break;
  }
  return false;
}

function rotated(el: Element): boolean {
  for (const [, style] of ancestry(el)) {
    if (style.rotate !== 'none' && style.rotate !== '0deg') return true;
    const m = /^matrix\(([^)]+)\)$/.exec(style.transform);
    if (m) {
      const [, b = 0, c = 0] = m[1]!.split(',').map(Number);
      if (Math.abs(b) > 1e-3 || Math.abs(c) > 1e-3) return true;
    } else if (style.transform.startsWith('matrix3d')) return true;
  }
  return false;
}

/**
 * Another element that paints opaquely (an image, video or canvas, or an opaque background) is on
 * top of `el` at every probe point of its lines: its text is not what the frame shows there.
 */
function covered(el: Element, lines: readonly DOMRect[]): boolean {
  const doc = el.ownerDocument;
  const win = doc.defaultView!;
  if (win.getComputedStyle(el).pointerEvents === 'none') return false; // hit testing cannot see it: unknown
  let probes = 0;
  let hidden = 0;
  for (const line of lines.slice(0, 3)) {
    for (const fx of [0.25, 0.5, 0.75]) {
      const x = line.left + line.width * fx;
      const y = line.top + line.height / 2;
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) continue;
      probes++;
      for (const hit of doc.elementsFromPoint(x, y)) {
        if (hit === el || el.contains(hit)) break;
        if (hit.contains(el)) continue;
        if (paintsOpaque(hit)) {
          hidden++;
          break;
        }
      }
    }
  }
  return probes > 0 && hidden === probes;
}

function paintsOpaque(el: Element): boolean {
  if (opacityChain(el) < 0.9) return false;
  if (/^(IMG|VIDEO|CANVAS)$/.test(el.tagName.toUpperCase())) return true;
  const style = el.ownerDocument.defaultView!.getComputedStyle(el);
  if (style.backgroundImage !== 'none') return true;
  const colour = parseColour(el.ownerDocument, style.backgroundColor);
  return colour !== null && colour[3] >= 0.9;
}
