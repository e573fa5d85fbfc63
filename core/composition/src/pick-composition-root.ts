import { ATTR } from './composition-attributes.js';

/**
 * How the root rule reads an element. The same rule runs on parsed HTML (lint, compile-time
 * metadata, the render's plan) and on the live DOM (the runtime in the render and in every
 * preview), so each side passes its own accessors.
 */
export interface RootElementView<E> {
  /** The attribute's value, undefined when absent. */
  attr(element: E, name: string): string | undefined;
  /** True when an ancestor other than `<html>` is a composition element (`data-composition-id`). */
  insideComposition(element: E): boolean;
}

/**
 * The composition root of a document: the element whose `data-width`, `data-height` and
 * `data-duration` describe the video. Never treated as a clip.
 *
 * 1. A composition element marked `data-root="true"` (HyperFrames' explicit marker).
 * 2. `<html>` when it carries `data-width`.
 * 3. When `<html>` names the composition (`data-composition-id`, HyperFrames puts the id and the
 *    variables there), the element with that id that carries the dimensions (a stage), else `<html>`.
 * 4. The first top-level composition element (not inside another one) that carries dimensions and
 *    `data-duration`. HyperFrames reads the length from the first composition element that has
 *    one, so a composition may put a background element first (a `<canvas data-composition-id>`
 *    drawn by a script, sized, with no length of its own) and the real root after it.
 * 5. The first composition element that carries dimensions (also one inside `<template>` content:
 *    HyperFrames' sub-composition files; a child root may leave its length to its host).
 * 6. `<html>` when it carries `data-height` or `data-duration`.
 * 7. The first composition element; undefined when there is none.
 *
 * `compositions` are the document's composition elements other than `<html>` that are not
 * sub-composition hosts (`data-composition-src`), in document order.
 */
export function pickCompositionRoot<E>(html: E | undefined, compositions: readonly E[], view: RootElementView<E>): E | undefined {
  const has = (element: E, name: string): boolean => view.attr(element, name) !== undefined;
  const sized = (element: E): boolean => has(element, ATTR.width) || has(element, ATTR.height);
  const marked = compositions.find((element) => view.attr(element, ATTR.root) === 'true');
  if (marked) return marked;
  if (html && has(html, ATTR.width)) return html;
  const htmlId = html ? view.attr(html, ATTR.compositionId) : undefined;
  if (html && htmlId !== undefined)
    return compositions.find((element) => sized(element) && view.attr(element, ATTR.compositionId) === htmlId) ?? html;
  const timed = compositions.find((element) => sized(element) && has(element, ATTR.duration) && !view.insideComposition(element));
  if (timed) return timed;
  const stage = compositions.find(sized);
  if (stage) return stage;
  if (html && (has(html, ATTR.height) || has(html, ATTR.duration))) return html;
  return compositions[0];
}
