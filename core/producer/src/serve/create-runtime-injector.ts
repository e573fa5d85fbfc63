import path from 'node:path';
import { documentRuntimeConfig, injectRuntime, type InjectedConfig, type SharedRuntimeConfig } from '@seekframe/runtime';
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
 * Injects the runtime into each HTML document the project server serves, with the config
 * @seekframe/runtime's documentRuntimeConfig decides for it (the deploy templates' preview uses
 * the same rule). The entry must be a valid composition (its error is thrown); sub-composition
 * files were linted before the render, so a broken one never gets here. Remote references are
 * rewritten to the render's proxy in every document, fragments included.
 */
export function createRuntimeInjector(options: RuntimeInjectorOptions): PrepareHtml {
  const shared: SharedRuntimeConfig = {
    mode: options.mode ?? 'render',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.fps === undefined ? {} : { fps: options.fps }),
    ...(options.epochMs === undefined ? {} : { epochMs: options.epochMs }),
  };
  return (html, { file, isEntry }) => {
    const relative = path.relative(options.root, file).split(path.sep).join('/');
    const config = documentRuntimeConfig(html, { file: relative, isEntry, shared, entryVariables: options.variables });
    const rewritten = rewriteRemoteReferences(html);
    return config ? injectRuntime(rewritten, config, options.runtimeSource) : rewritten;
  };
}
