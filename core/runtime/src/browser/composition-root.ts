import { pickCompositionRoot, type RootElementView } from '@seekframe/composition';

const DOM_ROOT_VIEW: RootElementView<Element> = {
  attr: (element, name) => element.getAttribute(name) ?? undefined,
  insideComposition: (element) => Boolean(element.parentElement?.closest('[data-composition-id]:not(html)')),
};

/**
 * The composition root of a document: the element that carries the dimensions (also one
 * instantiated from a `<template>`), picked by the rule lint and the render's plan use too
 * (@seekframe/composition's pickCompositionRoot); `<html>` when no element qualifies. It is never
 * treated as a clip.
 */
export function findCompositionRoot(doc: Document): Element {
  const html = doc.documentElement;
  const compositions = [...doc.querySelectorAll('[data-composition-id]:not([data-composition-src]):not(html)')];
  return pickCompositionRoot<Element>(html, compositions, DOM_ROOT_VIEW) ?? html;
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
    duration:
      numberAttribute(root, 'data-duration') ??
      (root === doc.documentElement ? undefined : numberAttribute(doc.documentElement, 'data-duration')),
    fps: numberAttribute(root, 'data-fps'),
  };
}

export function numberAttribute(el: Element, name: string): number | undefined {
  const raw = el.getAttribute(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}
