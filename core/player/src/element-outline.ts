/** A box in the composition's own pixels (its root document's viewport). */
export interface CompositionBox {
  left: number;
  top: number;
  width: number;
  height: number;
  /** The element is hidden at this time (outside its clip's window, or inside such a clip). */
  hidden: boolean;
}

/**
 * Where `element` sits in the composition whose window is `root`: its bounding box, moved out
 * through each same-origin frame between them (a sub-composition's iframe fills its host).
 * Undefined when the element is not in that composition or has no box (an `<audio>`, a
 * `display: none` element).
 */
export function compositionBox(element: Element, root: Window): CompositionBox | undefined {
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return undefined;
  let left = rect.left;
  let top = rect.top;
  let hidden = element.closest('[data-seekframe-hidden]') !== null;
  let win: Window | null = element.ownerDocument.defaultView;
  while (win && win !== root) {
    const frame = win.frameElement;
    if (!frame) return undefined;
    const box = frame.getBoundingClientRect();
    left += box.left + frame.clientLeft;
    top += box.top + frame.clientTop;
    hidden ||= frame.closest('[data-seekframe-hidden]') !== null;
    win = frame.ownerDocument.defaultView;
  }
  return win === root ? { left, top, width: rect.width, height: rect.height, hidden } : undefined;
}

/**
 * Elements under composition pixel `x`,`y` of the document in `win`, topmost first; a
 * same-origin frame under the point (a sub-composition) contributes its own elements first.
 */
export function elementsAtPoint(win: Window, x: number, y: number): Element[] {
  const doc = win.document;
  if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return [];
  const out: Element[] = [];
  for (const el of doc.elementsFromPoint(x, y)) {
    if (el === doc.documentElement || el === doc.body) continue;
    if (el instanceof (win as Window & typeof globalThis).HTMLIFrameElement && el.contentWindow) {
      const box = el.getBoundingClientRect();
      const scale = el.clientWidth > 0 ? box.width / el.clientWidth : 1;
      try {
        out.push(...elementsAtPoint(el.contentWindow, (x - box.left - el.clientLeft) / scale, (y - box.top - el.clientTop) / scale));
      } catch {
        // Another origin: its elements cannot be read; the frame itself stands for them.
      }
    }
    out.push(el);
  }
  return out;
}

/**
 * Puts the outline over the element's box, in the player's pixels (the composition is drawn at
 * `placement`: offset and scale inside the stage); hidden when there is no box. A clip not shown
 * at this time gets a dashed outline (`hidden-clip`).
 */
export function placeOutline(
  outline: HTMLElement,
  box: CompositionBox | undefined,
  placement: { left: number; top: number; scale: number },
): void {
  outline.hidden = !box;
  if (!box) return;
  const { left, top, scale } = placement;
  Object.assign(outline.style, {
    left: `${left + box.left * scale}px`,
    top: `${top + box.top * scale}px`,
    width: `${box.width * scale}px`,
    height: `${box.height * scale}px`,
  });
  outline.classList.toggle('hidden-clip', box.hidden);
}
