import { ROOT_ROUTES, type CompositionRoutes } from '../composition-files/composition-routes.js';
import type { FontFaces, FontFile } from './font-faces.js';

/** Where the render's project server answers `@fontsource` woff2 files: `/__seekframe/fonts/<id>/<file>`. */
export const FONT_ROUTE = ROOT_ROUTES.fonts;

export interface FontFaceOptions {
  /** The name the rules define (the authored name, e.g. `Arial` for Arimo's files). */
  family: string;
  /** Which faces to include; all when absent. */
  select?: (file: FontFile) => boolean;
  /** `font-display` value, e.g. from a Google Fonts URL's `display=swap`. */
  display?: string;
  /** Where the font files are served (default: a server that mounts the composition at `/`). */
  routes?: CompositionRoutes;
}

/**
 * `@font-face` rules for a package's woff2 files, one per subset/weight/style with the subset's
 * `unicode-range`, the way Google Fonts writes them. Browsers download only the files a page's
 * text needs, so listing every face costs nothing.
 */
export function fontFaceCss(pkg: FontFaces, options: FontFaceOptions): string {
  const family = JSON.stringify(options.family);
  const route = (options.routes ?? ROOT_ROUTES).fonts;
  const rules: string[] = [];
  for (const file of pkg.files) {
    if (options.select && !options.select(file)) continue;
    rules.push(
      `@font-face { font-family: ${family}; font-style: ${file.style}; font-weight: ${file.weight}; ` +
        (options.display ? `font-display: ${options.display}; ` : '') +
        `src: url(${route}${pkg.id}/${file.name}) format('woff2');` +
        (file.unicodeRange ? ` unicode-range: ${file.unicodeRange};` : '') +
        ' }',
    );
  }
  return rules.join('\n');
}
