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
