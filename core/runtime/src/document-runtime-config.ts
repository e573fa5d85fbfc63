import { extractCompositionMetadata } from '@seekframe/composition';
import type { InjectedConfig } from './injected-config.js';

/** What every document of one render or preview shares: mode, seed, fps, clock epoch. */
export type SharedRuntimeConfig = Omit<InjectedConfig, 'composition' | 'declarations' | 'variables' | 'embedded'>;

export interface DocumentToConfigure {
  /** The file's path inside the project, for error messages. */
  file: string;
  /** The composition's entry document (index.html); every other HTML file may be a child. */
  isEntry: boolean;
  shared: SharedRuntimeConfig;
  /** Top-level overrides (CLI, batch row): given to the entry document only. */
  entryVariables?: Record<string, unknown> | undefined;
}

const DOCUMENT = /<(?:!doctype|html|head|body)(?=[\s>/])/i;

/** Placeholder metadata of an embedded plain page: its runtime only keeps the clock (config.embedded). */
const EMBEDDED_PAGE: InjectedConfig['composition'] = { id: 'embedded-page', width: 1, height: 1, duration: 0 };

/**
 * The runtime config one HTML file of a project gets, decided the same way for `seekframe
 * render`, `seekframe preview` and the deploy templates' preview (one rule, so a preview plays
 * what the render renders):
 * - the entry: its own metadata and declarations, plus the top-level variables;
 * - any other composition file: role 'child' metadata (its host may decide its length) and no
 *   overrides (the child runtime reads its host's data-variable-values from its frame element);
 * - a plain page (an animated widget shown in an `<iframe>`): the runtime as an embedded page, so
 *   its clock follows the embedding clip's seeks;
 * - a fragment (no `<html>`, `<head>` or `<body>`: markup a script fetches): `undefined`, serve it
 *   as is.
 * An entry that is not a valid composition throws extractCompositionMetadata's error.
 */
export function documentRuntimeConfig(html: string, document: DocumentToConfigure): InjectedConfig | undefined {
  let metadata;
  try {
    metadata = extractCompositionMetadata(html, { file: document.file, role: document.isEntry ? 'entry' : 'child' });
  } catch (error) {
    if (document.isEntry) throw error;
    if (!DOCUMENT.test(html)) return undefined;
    return { ...document.shared, embedded: true, composition: EMBEDDED_PAGE };
  }
  return {
    ...document.shared,
    composition: {
      id: metadata.id,
      width: metadata.width,
      height: metadata.height,
      duration: metadata.duration,
      ...(metadata.fps === undefined ? {} : { fps: metadata.fps }),
    },
    declarations: metadata.variables,
    ...(document.isEntry && document.entryVariables ? { variables: document.entryVariables } : {}),
  };
}
