/**
 * The composition root of a document: `<html>` when it carries composition attributes, else the
 * first `[data-composition-id]` element. It is never treated as a clip.
 */
export function findCompositionRoot(doc: Document): Element {
  const html = doc.documentElement;
  if (html.hasAttribute('data-composition-id') || html.hasAttribute('data-width') || html.hasAttribute('data-duration')) return html;
  return doc.querySelector('[data-composition-id]:not([data-composition-src])') ?? html;
}

export interface RootMetadata {
  id: string | undefined;
  width: number | undefined;
  height: number | undefined;
  duration: number | undefined;
  fps: number | undefined;
}

export function readRootMetadata(doc: Document): RootMetadata {
  const root = findCompositionRoot(doc);
  return {
    id: root.getAttribute('data-composition-id') ?? undefined,
    width: numberAttribute(root, 'data-width'),
    height: numberAttribute(root, 'data-height'),
    duration: numberAttribute(root, 'data-duration'),
    fps: numberAttribute(root, 'data-fps'),
  };
}

export function numberAttribute(el: Element, name: string): number | undefined {
  const raw = el.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
