// The narrow entry of the runtime package: string work only, so this module loads in a Worker too.
import { documentRuntimeConfig, injectRuntime, type InjectedConfig, type SharedRuntimeConfig } from '@seekframe/runtime/inject';

/**
 * Turns an HTML file's text into the text the page receives (the runtime injected). `file` is the
 * document's path relative to the composition folder (POSIX), `isEntry` whether it is the entry.
 */
export type PrepareHtml = (html: string, context: { file: string; isEntry: boolean }) => string | Promise<string>;

export interface RuntimeInjectorOptions {
  /** The runtime bundle (`@seekframe/runtime/bundle`), or how to load it once when first needed. */
  runtimeSource: string | (() => Promise<string>);
  mode?: InjectedConfig['mode'];
  /** Top-level overrides (CLI/batch): given to the entry document only. */
  variables?: Record<string, unknown> | undefined;
  seed?: number;
  /** Render fps as a number (the runtime's virtual clock). */
  fps?: number;
  /** Shared origin of the virtual Date.now(), the same in every worker. */
  epochMs?: number;
}

/**
 * Injects the runtime into each HTML document of a composition, with the config
 * @seekframe/runtime's documentRuntimeConfig decides for it: the same rule for the render,
 * `seekframe preview` and every template's preview. The entry must be a valid composition (its
 * error is thrown); a fragment (no `<html>`, `<head>` or `<body>`) is served as it is.
 */
export function createRuntimeInjector(options: RuntimeInjectorOptions): PrepareHtml {
  const shared: SharedRuntimeConfig = {
    mode: options.mode ?? 'render',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.fps === undefined ? {} : { fps: options.fps }),
    ...(options.epochMs === undefined ? {} : { epochMs: options.epochMs }),
  };
  const source = options.runtimeSource;
  let loading: Promise<string> | undefined;
  const runtime = (): Promise<string> => {
    if (typeof source === 'string') return Promise.resolve(source);
    loading ??= source();
    // A failed load (the bundle not built yet) is tried again on the next document.
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return async (html, { file, isEntry }) => {
    const config = documentRuntimeConfig(html, { file, isEntry, shared, entryVariables: options.variables });
    return config ? injectRuntime(html, config, await runtime()) : html;
  };
}
