import { fontPackageId, parseFamilyList } from '@seekframe/composition';
import { remoteUrl, ROOT_ROUTES, type CompositionRoutes } from '../composition-files/composition-routes.js';
import { fontFaceCss } from './font-face-css.js';
import type { FindFont, FontFile } from './font-faces.js';

const GOOGLE_IMPORT =
  /@import\s+(?:url\(\s*(["']?)((?:https?:)?\/\/fonts\.googleapis\.com\/[^"')\s]*)\1\s*\)|(["'])((?:https?:)?\/\/fonts\.googleapis\.com\/[^"']*)\3)/gi;
const FONT_FACE = /@font-face\s*\{([^}]*)\}/gi;

/**
 * Points a stylesheet's Google Fonts `@import` at the project server (which answers it from local
 * packages), and replaces `@font-face` rules whose files live on fonts.gstatic.com (Google's CSS
 * pasted into a stylesheet) with the same faces from the installed `@fontsource` package. Rules
 * for a family that is not installed are left as written.
 */
export async function rewriteFontCss(css: string, findFont: FindFont, routes: CompositionRoutes = ROOT_ROUTES): Promise<string> {
  if (!/fonts\.(?:googleapis|gstatic)\.com/i.test(css)) return css;
  let out = css.replace(GOOGLE_IMPORT, (_all, _q1: string, url1: string | undefined, _q2: string, url2: string | undefined) => {
    const url = (url1 ?? url2 ?? '').replace(/^\/\//, 'https://');
    return `@import url("${remoteUrl(routes, url)}")`;
  });
  const blocks = [...out.matchAll(FONT_FACE)].filter((m) => /fonts\.gstatic\.com/i.test(m[1] as string));
  for (const block of blocks.reverse()) {
    const replacement = await localFontFace(block[1] as string, findFont, routes);
    if (replacement === null) continue;
    const start = block.index ?? 0;
    out = out.slice(0, start) + replacement + out.slice(start + block[0].length);
  }
  return out;
}

async function localFontFace(body: string, findFont: FindFont, routes: CompositionRoutes): Promise<string | null> {
  const descriptor = (name: string): string | undefined => new RegExp(`(?:^|[;\\s])${name}\\s*:\\s*([^;]+)`, 'i').exec(body)?.[1]?.trim();
  const family = parseFamilyList(descriptor('font-family') ?? '')[0];
  if (!family) return null;
  const pkg = await findFont(fontPackageId(family));
  if (!pkg) return null;
  const style = /italic|oblique/i.test(descriptor('font-style') ?? '') ? 'italic' : 'normal';
  const weights = (descriptor('font-weight') ?? '400')
    .split(/\s+/)
    .map((w) => (w === 'bold' ? 700 : w === 'normal' ? 400 : Number(w)))
    .filter((w) => Number.isFinite(w));
  const [min = 400, max = min] = weights;
  const range = normalizeRange(descriptor('unicode-range'));
  const sameSubset = range ? pkg.files.some((f) => normalizeRange(f.unicodeRange) === range) : false;
  const select = (file: FontFile): boolean =>
    file.style === style && file.weight >= min && file.weight <= max && (!sameSubset || normalizeRange(file.unicodeRange) === range);
  const css = fontFaceCss(pkg, {
    family,
    select,
    ...(descriptor('font-display') ? { display: descriptor('font-display') as string } : {}),
    routes,
  });
  return css || null;
}

function normalizeRange(range: string | undefined): string | undefined {
  return range?.replace(/\s+/g, '').toUpperCase();
}
