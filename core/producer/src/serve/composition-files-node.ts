// `@seekframe/producer/composition-files/node`: the composition files rule with this machine's files,
// packages and network (no render pipeline: no browser, no ffmpeg).
import { createCompositionFiles, type CompositionFiles } from './composition-files/serve-composition-file.js';
import { createRuntimeInjector, type RuntimeInjectorOptions } from './create-runtime-injector.js';
import { loadRuntimeSource } from './load-runtime-source.js';
import { createNodeCompositionHost, type NodeCompositionHostOptions } from './node-composition-host.js';

export { createNodeCompositionHost, type NodeCompositionHostOptions } from './node-composition-host.js';

export interface NodeCompositionFilesOptions extends NodeCompositionHostOptions {
  /** The entry document, relative to the folder (default `index.html`). */
  entry?: string;
  /** URL path the files are served under (default `/`). */
  base?: string;
  /** Runtime mode (default `preview`). */
  mode?: RuntimeInjectorOptions['mode'];
  /** Default: `@seekframe/runtime/bundle`, read when the first document is served. */
  runtimeSource?: RuntimeInjectorOptions['runtimeSource'];
}

/**
 * A composition folder on this machine served by the one rule (a deploy template's preview on
 * Node: `serveLocal`, the Vercel app). Its default network is none: the preview server fetches
 * nothing itself, a remote URL that is not installed here is loaded by the viewer's browser.
 */
export function createNodeCompositionFiles(options: NodeCompositionFilesOptions): CompositionFiles {
  const { entry = 'index.html', base, mode = 'preview', runtimeSource = loadRuntimeSource, ...hostOptions } = options;
  return createCompositionFiles({
    host: createNodeCompositionHost({ network: 'none', ...hostOptions }),
    entry,
    ...(base ? { base } : {}),
    prepareHtml: createRuntimeInjector({ runtimeSource, mode }),
  });
}

export { exportCompositionFiles, type ExportCompositionOptions, type ExportedComposition } from './export-composition-files.js';
