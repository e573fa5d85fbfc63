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
      metadata = extractCompositionMetadata(html, { file: relative });
    } catch (error) {
      // A plain HTML page the composition embeds (an <iframe> widget) is not a composition and is
      // served as is. Sub-composition files were linted before the render, so a broken one never
      // gets here; the entry must always be a valid composition.
      if (!isEntry) return rewriteRemoteReferences(html);
      throw error;
    }
    const config: InjectedConfig = {
      mode: options.mode ?? 'render',
      composition: {
        id: metadata.id,
        width: metadata.width,
        height: metadata.height,
        duration: metadata.duration,
        ...(metadata.fps === undefined ? {} : { fps: metadata.fps }),
      },
      declarations: metadata.variables,
      ...(isEntry && options.variables ? { variables: options.variables } : {}),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.fps === undefined ? {} : { fps: options.fps }),
      ...(options.epochMs === undefined ? {} : { epochMs: options.epochMs }),
    };
    return injectRuntime(rewriteRemoteReferences(html), config, options.runtimeSource);
  };
}
