import { extractCompositionMetadata, type CompositionMetadata } from '@seekframe/composition';
// The narrow entry: the package's main one also exports browser helpers typed with the DOM,
// which a Worker's typecheck (no DOM lib) cannot see.
import { injectRuntime } from '@seekframe/runtime/inject';

type InjectedConfig = Parameters<typeof injectRuntime>[1];

/** The preview asset (`PreviewAssets.read`) that holds the runtime bundle, `@seekframe/runtime/bundle`. */
export const RUNTIME_ASSET = 'seekframe-runtime.js';

/** The composition file the preview plays; every other HTML file may be a child document. */
export const ENTRY_FILE = 'index.html';

const DOCUMENT = /<(?:!doctype|html|head|body)(?=[\s>/])/i;

/** Placeholder metadata of an embedded plain page: its runtime only keeps the clock (config.embedded). */
const EMBEDDED_PAGE: InjectedConfig['composition'] = { id: 'embedded-page', width: 1, height: 1, duration: 0 };

/**
 * One HTML file of the composition as the preview serves it: with the runtime injected in
 * preview mode, the way `seekframe preview`'s project server (the producer's
 * createRuntimeInjector) serves it, so the player loads the entry by URL and every child
 * document (a `data-composition-src` sub-composition, a `<template>` child, an embedded
 * `<iframe>` page) gets the runtime too, as in the render.
 * - the entry (`index.html`): its own metadata and declarations; a file that is no composition is
 *   returned as is, so the player reports it (`invalid-composition`) as it always did;
 * - any other composition file: role 'child' metadata (its host may decide its length), no
 *   overrides (the child runtime reads its host's data-variable-values);
 * - a plain page: the runtime as an embedded page (its clock follows the embedding clip);
 * - a fragment (no `<html>`, `<head>` or `<body>`: markup a script fetches): as is.
 * Pure string work with no `node:` import: it runs in a Worker too. Remote references are left
 * alone (the browser fetches them itself in a preview; only the render proxies them).
 */
export function injectPreviewRuntime(html: string, file: string, runtimeSource: string): string {
  const isEntry = file === ENTRY_FILE;
  let metadata: CompositionMetadata;
  try {
    metadata = extractCompositionMetadata(html, { file, role: isEntry ? 'entry' : 'child' });
  } catch {
    if (isEntry || !DOCUMENT.test(html)) return html;
    return injectRuntime(html, { mode: 'preview', embedded: true, composition: EMBEDDED_PAGE }, runtimeSource);
  }
  const config: InjectedConfig = {
    mode: 'preview',
    composition: {
      id: metadata.id,
      width: metadata.width,
      height: metadata.height,
      duration: metadata.duration,
      ...(metadata.fps === undefined ? {} : { fps: metadata.fps }),
    },
    declarations: metadata.variables,
  };
  return injectRuntime(html, config, runtimeSource);
}
