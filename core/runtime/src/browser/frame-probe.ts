import type { ElementRef, FrameBox, FrameProbe, FrameProbeRequest, SeekframeRuntime, TextBlock } from '../runtime-types.js';
import { cssPath } from './css-path.js';
import { isRendered, paintedBox } from './painted-box.js';
import { textBlocks } from './text-blocks.js';

/** A sub-composition as the probe sees it: its host, its iframe and the child's runtime once attached. */
export interface ProbedSub {
  id: string;
  host: Element;
  iframe: HTMLIFrameElement;
  runtime: Pick<SeekframeRuntime, 'probeFrame' | 'hideText'> | undefined;
}

/**
 * What an element looks like, read when its animations name no property (nothing better known):
 * with its attributes and its text, two samples with equal digests show the element unchanged.
 */
const LOOK = [
  'transform',
  'translate',
  'rotate',
  'scale',
  'opacity',
  'visibility',
  'display',
  'color',
  'background-color',
  'background-position',
  'background-size',
  'clip-path',
  'filter',
  'width',
  'height',
  'left',
  'top',
  'right',
  'bottom',
  'fill',
  'stroke',
  'stroke-dashoffset',
  'offset-distance',
];

/** GSAP vars that GSAP writes into `transform` (or the SVG transform attribute): read through LOOK. */
const GSAP_TRANSFORM =
  /^(x|y|z|xPercent|yPercent|rotation[XYZ]?|rotate[XYZ]?|scale[XYZ]?|skew[XY]?|transformOrigin|svgOrigin|transformPerspective|force3D|smoothOrigin|autoAlpha|attr|css)$/;

/**
 * The frame probe of one document and, through their runtimes, its sub-compositions, in this
 * document's viewport pixels (a child's boxes are moved and scaled by where its iframe sits).
 */
export function probeFrame(doc: Document, subs: readonly ProbedSub[], request: FrameProbeRequest): FrameProbe {
  const targets: FrameProbe['targets'] = request.targets.map(() => null);
  const bySub = new Map<ProbedSub, number[]>();
  request.targets.forEach((target, i) => {
    if (target.hosts.length === 0) {
      const el = query(doc, target.selector);
      if (el) targets[i] = { box: paintedBox(el), values: valuesOf(el, target.properties ?? []) };
      return;
    }
    const sub = subFor(doc, subs, target.hosts[0]!);
    if (sub) bySub.set(sub, [...(bySub.get(sub) ?? []), i]);
  });
  for (const [sub, indices] of bySub) {
    // A host outside its clip is hidden here, which its own document cannot see: nothing in it paints.
    const shown = isRendered(sub.iframe);
    const child = sub.runtime?.probeFrame({
      targets: indices.map((i) => ({ ...request.targets[i]!, hosts: request.targets[i]!.hosts.slice(1) })),
    });
    if (!child) continue;
    const place = placement(sub.iframe);
    indices.forEach((i, k) => {
      const found = child.targets[k];
      targets[i] = found ? { box: found.box && shown ? place(found.box) : null, values: found.values } : null;
    });
  }
  if (!request.text) return { targets, texts: [] };

  const moving = (request.moving ?? []).filter((m) => m.hosts.length === 0).flatMap((m) => query(doc, m.selector) ?? []);
  const texts = textBlocks(doc, moving);
  for (const sub of subs) {
    if (!isRendered(sub.iframe)) continue;
    const host = cssPath(sub.host);
    const inside = (request.moving ?? []).filter((m) => m.hosts[0] === host).map((m): ElementRef => ({ ...m, hosts: m.hosts.slice(1) }));
    const child = sub.runtime?.probeFrame({ targets: [], text: true, moving: inside });
    if (!child) continue;
    const place = placement(sub.iframe);
    const frameBox = sub.iframe.getBoundingClientRect();
    const hostOpacity = opacityChain(sub.iframe);
    const hostMoving = moving.some((m) => m.contains(sub.host));
    for (const block of child.texts) texts.push(adopt(block, sub, host, place, frameBox, hostOpacity, hostMoving));
  }
  return { targets, texts };
}

/** A child's text block in this document: label and hosts prefixed, boxes placed, cut by the iframe. */
function adopt(
  block: TextBlock,
  sub: ProbedSub,
  host: string,
  place: (box: FrameBox) => FrameBox,
  frame: DOMRect,
  hostOpacity: number,
  hostMoving: boolean,
): TextBlock {
  const clip = block.clip ? intersect(place(block.clip), frame) : { x: frame.left, y: frame.top, width: frame.width, height: frame.height };
  return {
    ...block,
    label: `[${sub.id}] ${block.label}`,
    hosts: [host, ...block.hosts],
    lines: block.lines.map(place),
    box: block.box ? { ...block.box, ...place(block.box), label: `[${sub.id}] ${block.box.label}` } : null,
    clip,
    opacity: block.opacity * hostOpacity,
    moving: block.moving || hostMoving,
  };
}

/** Maps a child document's viewport pixels to this one's: where its iframe sits, and its scale. */
function placement(iframe: HTMLIFrameElement): (box: FrameBox) => FrameBox {
  const r = iframe.getBoundingClientRect();
  const sx = iframe.clientWidth > 0 ? r.width / iframe.clientWidth : 1;
  const sy = iframe.clientHeight > 0 ? r.height / iframe.clientHeight : 1;
  return (box) => ({ x: r.left + box.x * sx, y: r.top + box.y * sy, width: box.width * sx, height: box.height * sy });
}

function intersect(a: FrameBox, b: DOMRect): FrameBox {
  const x = Math.max(a.x, b.left);
  const y = Math.max(a.y, b.top);
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.right) - x), height: Math.max(0, Math.min(a.y + a.height, b.bottom) - y) };
}

function subFor(doc: Document, subs: readonly ProbedSub[], hostSelector: string): ProbedSub | undefined {
  const host = query(doc, hostSelector);
  return host ? subs.find((sub) => sub.host === host) : undefined;
}

function query(doc: Document, selector: string): Element | null {
  try {
    return doc.querySelector(selector);
  } catch {
    return null;
  }
}

function opacityChain(el: Element): number {
  const win = el.ownerDocument.defaultView!;
  let opacity = 1;
  for (let node: Element | null = el; node; node = node.parentElement) opacity *= Number(win.getComputedStyle(node).opacity) || 0;
  return opacity;
}

/**
 * A digest of the values `el`'s animations set, now: the computed value of each property they
 * name (GSAP's transform shorthands read as the computed transform and the SVG transform
 * attribute; `attr` as the attributes; `text` as the text), and the inline style, where GSAP writes.
 * Only these: an attribute a script updates on every frame, or a neighbour's layout, is no motion
 * of this element. Nothing named (an animation whose properties are unknown): what it looks like.
 */
export function valuesOf(el: Element, properties: readonly string[]): string {
  const style = el.ownerDocument.defaultView!.getComputedStyle(el);
  const parts = [`style=${el.getAttribute('style') ?? ''}`];
  const read = (name: string): void => {
    parts.push(`${name}:${style.getPropertyValue(name)}`);
  };
  if (properties.length === 0) {
    LOOK.forEach(read);
    for (const attr of Array.from(el.attributes)) if (!attr.name.startsWith('data-seekframe')) parts.push(`@${attr.name}=${attr.value}`);
    parts.push(el.textContent?.slice(0, 200) ?? '');
    return parts.join('|');
  }
  for (const property of properties) {
    if (property === 'attr') {
      for (const attr of Array.from(el.attributes)) if (!attr.name.startsWith('data-seekframe')) parts.push(`@${attr.name}=${attr.value}`);
    } else if (/^(text|textContent|innerText|innerHTML)$/.test(property)) {
      parts.push(el.textContent?.slice(0, 200) ?? '');
    } else if (property === 'autoAlpha') {
      read('opacity');
      read('visibility');
    } else if (GSAP_TRANSFORM.test(property)) {
      for (const name of ['transform', 'translate', 'rotate', 'scale']) read(name);
      parts.push(`@transform=${el.getAttribute('transform') ?? ''}`);
    } else {
      const css = property.startsWith('--') ? property : property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const value = style.getPropertyValue(css);
      if (value !== '') parts.push(`${css}:${value}`);
      else {
        // Not a CSS property (GSAP tweens any numeric property: scrollTop, a custom one).
        const own = (el as unknown as Record<string, unknown>)[property];
        if (own === null || ['string', 'number', 'boolean'].includes(typeof own)) parts.push(`${property}=${String(own)}`);
      }
    }
  }
  return parts.join('|');
}
