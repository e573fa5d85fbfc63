/**
 * The composition root of a document: the element that carries the dimensions. `<html>` when it
 * has them; when `<html>` names the composition, the element with that id and the dimensions (a
 * stage; until it is parsed, `<html>`); else the first composition element (not a host) with
 * dimensions (also one instantiated from a `<template>`), else the first composition element.
 * It is never treated as a clip. Same rule as the linter's (inspect-composition.ts).
 */
export function findCompositionRoot(doc: Document): Element {
  const html = doc.documentElement;
  if (html.hasAttribute('data-width')) return html;
  const htmlId = html.getAttribute('data-composition-id');
  const candidates = [...doc.querySelectorAll('[data-composition-id]:not([data-composition-src]):not(html)')];
  const sized = (el: Element): boolean => el.hasAttribute('data-width') || el.hasAttribute('data-height');
  if (htmlId !== null) return candidates.find((el) => sized(el) && el.getAttribute('data-composition-id') === htmlId) ?? html;
  const stage = candidates.find(sized);
  if (stage) return stage;
  if (html.hasAttribute('data-height') || html.hasAttribute('data-duration')) return html;
  return candidates[0] ?? html;
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
    // An <html data-composition-id> + stage pair may split the attributes between them.
    duration: numberAttribute(root, 'data-duration') ?? (root === doc.documentElement ? undefined : numberAttribute(doc.documentElement, 'data-duration')),
    fps: numberAttribute(root, 'data-fps'),
  };
}

export function numberAttribute(el: Element, name: string): number | undefined {
  const raw = el.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
