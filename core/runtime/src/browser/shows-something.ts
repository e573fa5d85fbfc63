/** Elements that never paint a box of their own, even when the browser gives them one. */
const NOT_SHOWN = 'script, style, template, link, meta, title, noscript';

/** Whether a child document has anything that can paint: a visible box or text in its body. */
export function showsSomething(doc: Document | null): boolean {
  const body = doc?.body;
  if (!body) return false;
  const view = doc.defaultView;
  for (const el of [doc.documentElement, body]) {
    const style = view?.getComputedStyle(el);
    if (style && (style.backgroundImage !== 'none' || !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(style.backgroundColor))) return true;
  }
  for (const el of body.querySelectorAll('*')) {
    if (el.matches(NOT_SHOWN) || el.closest(NOT_SHOWN)) continue;
    // The layout box, before transforms: a component that pops in from scale(0) shows something.
    // (The child document is another realm: its elements are not this window's HTMLElement.)
    const [width, height] = view && el instanceof view.HTMLElement ? [el.offsetWidth, el.offsetHeight] : sizeOf(el.getBoundingClientRect());
    if (width > 0 && height > 0) return true;
  }
  for (const node of body.childNodes) if (node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '') return true;
  return false;
}

function sizeOf(box: DOMRect): [number, number] {
  return [box.width, box.height];
}
