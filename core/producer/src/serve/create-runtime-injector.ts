import path from 'node:path';
import { extractCompositionMetadata, type CompositionMetadata } from '@seekframe/composition';
import { injectRuntime, type InjectedConfig } from '@seekframe/runtime';
import type { PrepareHtml } from './project-server.js';
import { rewriteRemoteReferences } from './rewrite-remote-references.js';

export interface RuntimeInjectorOptions {
  root: string;
  runtimeSource: string;
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
 * Injects the runtime into each HTML document with that document's own compile-time metadata.
 * Child documents (sub-compositions) get no overrides: their host's data-variable-values are read
 * by the child runtime from its frame element.
 */
export function createRuntimeInjector(options: RuntimeInjectorOptions): PrepareHtml {
  return (html, { file, isEntry }) => {
    const relative = path.relative(options.root, file).split(path.sep).join('/');
    let metadata: CompositionMetadata;
    try {
      // Any file but the entry may be embedded by a host, whose data-duration (or the child's own
      // timeline, measured in the page) may decide its length.
      metadata = extractCompositionMetadata(html, { file: relative, role: isEntry ? 'entry' : 'child' });
    } catch (error) {
      // The entry must always be a valid composition. Sub-composition files were linted before the
      // render, so a broken one never gets here.
      if (isEntry) throw error;
      // A plain page the composition shows in an <iframe> (an animated widget): it gets the runtime
      // too, so its clock (rAF, timers, Date) follows the embedding clip's seeks. A fragment (no
      // <html>, <head> or <body>: markup a script fetches) is served as is.
      if (!DOCUMENT.test(html)) return rewriteRemoteReferences(html);
      return injectRuntime(rewriteRemoteReferences(html), { ...shared(options), embedded: true, composition: EMBEDDED_PAGE }, options.runtimeSource);
    }
    const config: InjectedConfig = {
      ...shared(options),
      composition: {
        id: metadata.id,
        width: metadata.width,
        height: metadata.height,
        duration: metadata.duration,
        ...(metadata.fps === undefined ? {} : { fps: metadata.fps }),
      },
      declarations: metadata.variables,
      ...(isEntry && options.variables ? { variables: options.variables } : {}),
    };
    return injectRuntime(rewriteRemoteReferences(html), config, options.runtimeSource);
  };
}

const DOCUMENT = /<(?:!doctype|html|head|body)(?=[\s>/])/i;

/** Placeholder metadata of an embedded plain page: its runtime only keeps the clock (config.embedded). */
const EMBEDDED_PAGE: InjectedConfig['composition'] = { id: 'embedded-page', width: 1, height: 1, duration: 0 };

function shared(options: RuntimeInjectorOptions): Omit<InjectedConfig, 'composition'> {
  return {
    mode: options.mode ?? 'render',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.fps === undefined ? {} : { fps: options.fps }),
    ...(options.epochMs === undefined ? {} : { epochMs: options.epochMs }),
  };
}
