// The narrow entry: the package's main one also exports browser helpers typed with the DOM,
// which a Worker's typecheck (no DOM lib) cannot see.
import { documentRuntimeConfig, injectRuntime } from '@seekframe/runtime/inject';

/** The preview asset (`PreviewAssets.read`) that holds the runtime bundle, `@seekframe/runtime/bundle`. */
export const RUNTIME_ASSET = 'seekframe-runtime.js';

/** The composition file the preview plays; every other HTML file may be a child document. */
export const ENTRY_FILE = 'index.html';

/**
 * One HTML file of the composition as the preview serves it: with the runtime injected in
 * preview mode, by the same rule as `seekframe preview`'s project server (@seekframe/runtime's
 * documentRuntimeConfig), so the player loads the entry by URL and every child document (a
 * `data-composition-src` sub-composition, a `<template>` child, an embedded `<iframe>` page) gets
 * the runtime too, as in the render. An entry that is no composition is returned as is, so the
 * player reports it (`invalid-composition`) as it always did. Pure string work with no `node:`
 * import: it runs in a Worker too. Remote references are left alone (the browser fetches them
 * itself in a preview; only the render proxies them).
 */
export function injectPreviewRuntime(html: string, file: string, runtimeSource: string): string {
  let config;
  try {
    config = documentRuntimeConfig(html, { file, isEntry: file === ENTRY_FILE, shared: { mode: 'preview' } });
  } catch {
    return html;
  }
  return config ? injectRuntime(html, config, runtimeSource) : html;
}
