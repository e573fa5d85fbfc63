import { createNodeCompositionFiles } from '@seekframe/producer/composition-files/node';
import type { CompositionFiles } from '@seekframe/producer/composition-files';
import { PREVIEW_COMPOSITION_BASE } from '../preview-routes.js';

/**
 * The composition folder's files for a template's preview on Node (`compositionFiles` of
 * createRenderApi): the render's rule with this machine's `node_modules` (npm CDN URLs and
 * `node_modules/` paths from installed packages, fonts from `@fontsource`), mounted at
 * `/preview/composition/`. The preview server fetches nothing from the network itself: a remote
 * URL that is not installed here is loaded by the viewer's browser (a redirect).
 */
export function nodeCompositionFiles(compositionDir: string): CompositionFiles {
  return createNodeCompositionFiles({ root: compositionDir, base: PREVIEW_COMPOSITION_BASE, confineToRoot: true });
}
