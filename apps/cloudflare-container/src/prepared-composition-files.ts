import { createExportedFiles, type CompositionFiles } from '@seekframe/producer/composition-files';
import { compositionFiles } from 'seekframe:bundled-assets';

/** Where scripts/build.mjs puts the prepared files among the Worker's static assets (dist/assets). */
const PREFIX = '/composition/';

/**
 * The composition's files for the player as scripts/build.mjs prepared them with the render's own
 * rule (a Worker cannot read node_modules): the runtime in every page, npm libraries and
 * @fontsource faces, from the Worker's static assets (the ASSETS binding). A remote URL the build
 * had no local copy of is loaded by the viewer's browser from where it is.
 */
export function preparedCompositionFiles(assets: Fetcher): CompositionFiles {
  return createExportedFiles(compositionFiles, (file, request) => {
    const url = new URL(PREFIX + file.file.split('/').map(encodeURIComponent).join('/'), 'https://assets.invalid');
    const range = request.headers.get('range');
    return assets.fetch(new Request(url, range ? { headers: { range } } : {}));
  });
}
