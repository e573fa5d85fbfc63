import type { FrameBox } from '../runtime-types.js';

/** Enough descendants to place any real element; a bigger subtree is measured by its first ones. */
const MAX_NODES = 500;

/**
 * Where `el` and its descendants paint, in its document's viewport pixels: the boxes of those that
 * paint something themselves (a background, border, image, video, canvas, an SVG shape's fill or
 * stroke, a pseudo-element) with what paints outside them (an SVG stroke, box-shadow, outline, a
 * drop-shadow or blur filter), and the line boxes of their visible text. Transforms are in
 * getBoundingClientRect already. A box of zero width or height paints only through those: an SVG
 * `<line>` by its stroke, a 0-height rule by its border or shadow; a box that paints nothing (an
 * empty wrapper, a span holding only a space) adds nothing. null when nothing paints.
 */
export function paintedBox(el: Element): FrameBox | null {
  const win = el.ownerDocument.defaultView;
  if (!win) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const add = (left: number, top: number, right: number, bottom: number): void => {
    if (!(right > left) || !(bottom > top)) return;
    x0 = Math.min(x0, left);
    y0 = Math.min(y0, top);
    x1 = Math.max(x1, right);
    y1 = Math.max(y1, bottom);
  };
  for (const node of [el, ...Array.from(el.querySelectorAll('*')).slice(0, MAX_NODES)]) {
    // Not rendered (display: none here or above, visibility: hidden): paints nothing, whatever its outsets.
    if (!isRendered(node)) continue;
    const style = win.getComputedStyle(node);
    const out = outsetOf(node, style);
    if (paintsItself(node, style) || out.left + out.top + out.right + out.bottom > 0) {
      const r = node.getBoundingClientRect();
      add(r.left - out.left, r.top - out.top, r.right + out.right, r.bottom + out.bottom);
    }
    for (const line of ownTextRects(node)) add(line.left, line.top, line.right, line.bottom);
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Elements whose content is drawn by the element itself (images, media, canvases, frames, form controls). */
const REPLACED = /^(IMG|VIDEO|CANVAS|IFRAME|OBJECT|EMBED|INPUT|BUTTON|SELECT|TEXTAREA|PICTURE|IMAGE|USE|FOREIGNOBJECT)$/;

/** Whether the element's own box shows something (its text is counted separately). */
function paintsItself(node: Element, style: CSSStyleDeclaration): boolean {
  if (REPLACED.test(node.tagName.toUpperCase())) return true;
  if (node instanceof SVGGeometryElement) return style.fill !== 'none' || style.stroke !== 'none';
  const background = style.backgroundColor;
  if (background && background !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(background)) return true;
  if (style.backgroundImage !== 'none') return true;
  if (
    ['top', 'right', 'bottom', 'left'].some(
      (side) =>
        (parseFloat(style.getPropertyValue(`border-${side}-width`)) || 0) > 0 && style.getPropertyValue(`border-${side}-style`) !== 'none',
    )
  )
    return true;
  if (style.borderImageSource && style.borderImageSource !== 'none') return true;
  const win = node.ownerDocument.defaultView!;
  for (const pseudo of ['::before', '::after']) {
    const content = win.getComputedStyle(node, pseudo).content;
    if (content && content !== 'none' && content !== 'normal') return true;
  }
  return false;
}

/** Laid out and not hidden: in no `display: none` subtree, not `visibility: hidden`. */
export function isRendered(node: Element): boolean {
  if (typeof node.checkVisibility === 'function') return node.checkVisibility({ visibilityProperty: true });
  const style = node.ownerDocument.defaultView!.getComputedStyle(node);
  return style.display !== 'none' && style.visibility !== 'hidden' && node.getClientRects().length > 0;
}

interface Outset {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** How far beyond its border box an element paints, per side, in viewport pixels. */
function outsetOf(node: Element, style: CSSStyleDeclaration): Outset {
  const out: Outset = { left: 0, top: 0, right: 0, bottom: 0 };
  const grow = (left: number, top: number, right: number, bottom: number): void => {
    out.left = Math.max(out.left, left);
    out.top = Math.max(out.top, top);
    out.right = Math.max(out.right, right);
    out.bottom = Math.max(out.bottom, bottom);
  };
  const scale = viewportScale(node);
  if (node instanceof SVGGraphicsElement && !(node instanceof SVGSVGElement) && style.stroke !== 'none') {
    // getBoundingClientRect of an SVG shape is its fill geometry; half the stroke lies outside it.
    const half = ((parseFloat(style.strokeWidth) || 0) / 2) * (style.vectorEffect === 'non-scaling-stroke' ? 1 : scale);
    grow(half, half, half, half);
  }
  for (const shadow of splitList(style.boxShadow)) {
    if (/\binset\b/.test(shadow)) continue;
    const [dx = 0, dy = 0, blur = 0, spread = 0] = lengths(shadow);
    const reach = (blur + spread) * scale;
    grow(reach - dx * scale, reach - dy * scale, reach + dx * scale, reach + dy * scale);
  }
  if (style.outlineStyle !== 'none') {
    const reach = ((parseFloat(style.outlineWidth) || 0) + (parseFloat(style.outlineOffset) || 0)) * scale;
    grow(reach, reach, reach, reach);
  }
  for (const [, name, args] of style.filter.matchAll(/([a-z-]+)\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)) {
    if (name === 'blur') {
      const reach = (parseFloat(args!) || 0) * 2 * scale;
      grow(reach, reach, reach, reach);
    } else if (name === 'drop-shadow') {
      const [dx = 0, dy = 0, blur = 0] = lengths(args!);
      const reach = blur * 2 * scale;
      grow(reach - dx * scale, reach - dy * scale, reach + dx * scale, reach + dy * scale);
    }
  }
  return out;
}

/** CSS-to-viewport scale of an element (its transforms): the square root of its matrix's area factor. */
function viewportScale(node: Element): number {
  if (node instanceof SVGGraphicsElement) {
    const m = node.getScreenCTM();
    if (m) return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) || 1;
  }
  const html = node as HTMLElement;
  const width = html.offsetWidth;
  const rect = node.getBoundingClientRect();
  return width > 0 && rect.width > 0 ? rect.width / width : 1;
}

/** The line boxes of an element's own (direct) text nodes. */
export function ownTextRects(node: Element): DOMRect[] {
  const rects: DOMRect[] = [];
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType !== 3 || !child.textContent?.trim()) continue;
    const range = node.ownerDocument.createRange();
    range.selectNodeContents(child);
    for (const rect of Array.from(range.getClientRects())) if (rect.width > 0.5 && rect.height > 0.5) rects.push(rect);
  }
  return rects;
}

/** A comma-separated computed list (box-shadow), commas inside parentheses kept. */
function splitList(value: string): string[] {
  if (!value || value === 'none') return [];
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** The px lengths of a computed shadow, colour removed (`rgb(0, 0, 0) 4px 6px 10px 0px` -> [4, 6, 10, 0]). */
function lengths(shadow: string): number[] {
  return [...shadow.replace(/[a-z]+\([^)]*\)/g, '').matchAll(/(-?[\d.]+)px/g)].map((m) => parseFloat(m[1]!));
}
