// The server-side half of the runtime package (`@seekframe/runtime/inject`): string work only, no
// browser helpers typed with the DOM, so a Worker's typecheck (no DOM lib) can import it.
export { injectRuntime, isRuntimeInjected, RUNTIME_MARKER } from './inject-runtime.js';
export { documentRuntimeConfig, type DocumentToConfigure, type SharedRuntimeConfig } from './document-runtime-config.js';
export type { InjectedConfig } from './injected-config.js';
