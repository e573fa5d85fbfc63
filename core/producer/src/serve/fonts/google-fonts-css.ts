import { fontInstallCommand, fontPackageId, type GoogleFontsRequest } from '@seekframe/composition';
import { ROOT_ROUTES, type CompositionRoutes } from '../composition-files/composition-routes.js';
import { fontFaceCss } from './font-face-css.js';
import type { FindFont } from './font-faces.js';

/**
 * The stylesheet a Google Fonts URL stands for, written from installed `@fontsource` packages
 * (weights and styles as requested, every subset the package has). A family that is not installed
 * is left out with a comment: the page falls back to its next family, and lint has already warned
 * about it with the install command. Nothing goes to the network, so the render is the same
 * everywhere.
 */
export async function googleFontsCss(
  request: GoogleFontsRequest,
  findFont: FindFont,
  routes: CompositionRoutes = ROOT_ROUTES,
): Promise<string> {
  const parts: string[] = [];
  for (const { family, faces } of request.families) {
    const pkg = await findFont(fontPackageId(family));
    if (!pkg) {
      parts.push(`/* ${family.replace(/\*\//g, '')}: not installed locally (${fontInstallCommand(family)}) */`);
      continue;
    }
    const wanted = (weight: number, style: string): boolean =>
      faces.some((f) => f.style === style && weight >= f.minWeight && weight <= f.maxWeight);
    let css = fontFaceCss(pkg, {
      family: pkg.family,
      select: (file) => wanted(file.weight, file.style),
      ...(request.display ? { display: request.display } : {}),
      routes,
    });
    // A weight the package lacks (e.g. 450): give the nearest one it has, as the browser would pick it.
    if (!css) {
      const styles = new Set(faces.map((f) => f.style));
      const target = faces[0]?.minWeight ?? 400;
      const candidates = pkg.files.filter((f) => styles.has(f.style));
      const nearest = candidates.reduce<number | undefined>(
        (best, f) => (best === undefined || Math.abs(f.weight - target) < Math.abs(best - target) ? f.weight : best),
        undefined,
      );
      css = fontFaceCss(pkg, {
        family: pkg.family,
        select: (file) => file.weight === nearest && styles.has(file.style),
        ...(request.display ? { display: request.display } : {}),
        routes,
      });
    }
    parts.push(css);
  }
  return parts.join('\n') + '\n';
}
