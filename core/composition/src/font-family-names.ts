/**
 * Font family names: which are CSS generics (left to the machine), which system names map to a
 * local `@fontsource` face, and the package a family comes from. Shared by lint (is it installed?)
 * and the producer (serve it), so both agree on every name.
 */

/** Generic families and CSS-wide keywords: not family names, so no `@font-face` can stand in for them. */
const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
  'inherit',
  'initial',
  'unset',
  'revert',
  'revert-layer',
  'default',
]);

export interface SystemFontAlias {
  /** `@fontsource/<package>` that stands in for the name. */
  package: string;
  /** True when the face has the same advance widths as the system font (text wraps identically). */
  metricCompatible: boolean;
}

/**
 * System family names compositions often ask for, mapped to a bundled face. Metric-compatible
 * faces first (Arimo, Tinos, Cousine, Gelasio, Carlito, Caladea were drawn to the widths of the
 * fonts they replace); Apple/Windows UI faces get Inter, their usual open stand-in, and code faces
 * JetBrains Mono. Keys are lower case.
 */
export const SYSTEM_FONT_ALIASES: Readonly<Record<string, SystemFontAlias>> = {
  arial: { package: 'arimo', metricCompatible: true },
  helvetica: { package: 'arimo', metricCompatible: true },
  'helvetica neue': { package: 'arimo', metricCompatible: false },
  'liberation sans': { package: 'arimo', metricCompatible: true },
  'times new roman': { package: 'tinos', metricCompatible: true },
  times: { package: 'tinos', metricCompatible: true },
  'liberation serif': { package: 'tinos', metricCompatible: true },
  'courier new': { package: 'cousine', metricCompatible: true },
  courier: { package: 'cousine', metricCompatible: true },
  'liberation mono': { package: 'cousine', metricCompatible: true },
  georgia: { package: 'gelasio', metricCompatible: true },
  calibri: { package: 'carlito', metricCompatible: true },
  cambria: { package: 'caladea', metricCompatible: true },
  '-apple-system': { package: 'inter', metricCompatible: false },
  blinkmacsystemfont: { package: 'inter', metricCompatible: false },
  'sf pro': { package: 'inter', metricCompatible: false },
  'sf pro display': { package: 'inter', metricCompatible: false },
  'sf pro text': { package: 'inter', metricCompatible: false },
  'segoe ui': { package: 'inter', metricCompatible: false },
  'sf mono': { package: 'jetbrains-mono', metricCompatible: false },
  menlo: { package: 'jetbrains-mono', metricCompatible: false },
  monaco: { package: 'jetbrains-mono', metricCompatible: false },
  consolas: { package: 'jetbrains-mono', metricCompatible: false },
};

export function isGenericFontFamily(name: string): boolean {
  return GENERIC_FAMILIES.has(name.trim().toLowerCase());
}

/** The `@fontsource/<id>` package for a family: its system alias, else its kebab-case name (`Playfair Display` -> `playfair-display`). */
export function fontPackageId(family: string): string {
  const key = family.trim().toLowerCase().replace(/\s+/g, ' ');
  const alias = SYSTEM_FONT_ALIASES[key];
  if (alias) return alias.package;
  return key
    .normalize('NFKD')
    .replace(/[^a-z0-9 _-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-');
}

/** What a user runs to make a family available to every render of the project. */
export function fontInstallCommand(family: string): string {
  return `npm i @fontsource/${fontPackageId(family)}`;
}
