import type { CheckResult } from './check-result.js';

/** Families as `fc-list : family` prints them: one font per line, aliases comma-separated. */
export function parseFontFamilies(output: string): string[] {
  const families = new Set<string>();
  for (const line of output.split('\n')) {
    for (const name of line.split(',')) {
      const trimmed = name.trim();
      if (trimmed) families.add(trimmed);
    }
  }
  return [...families].sort();
}

/** `families` null: fc-list is missing, so fontconfig (which Chromium uses) is not set up. */
export function checkFonts(families: string[] | null): CheckResult[] {
  if (families === null) {
    return [
      {
        id: 'fonts',
        title: 'Fonts',
        status: 'warn',
        summary: 'fc-list not found (fontconfig missing)',
        fix: 'Install fontconfig and fonts: apt-get install fontconfig fonts-noto-core fonts-noto-color-emoji',
      },
    ];
  }
  return [textFonts(families), emojiFont(families)];
}

/**
 * System fonts (fontconfig) now serve only the generic families (sans-serif, serif, monospace)
 * and glyphs no @fontsource face has; named families come from the packages (`checkFontPackages`).
 */
function textFonts(families: string[]): CheckResult {
  const base = { id: 'fonts', title: 'System fonts' };
  const noto = families.includes('Noto Sans');
  if (noto)
    return {
      ...base,
      status: 'ok',
      summary: `Noto Sans and ${families.length - 1} other families (for sans-serif/serif/monospace and glyphs no bundled face has)`,
    };
  if (families.length > 0) {
    return {
      ...base,
      status: 'warn',
      summary: `${families.length} families, no Noto Sans`,
      fix: 'Text set in a generic family (sans-serif, serif, monospace) or in a script no bundled face covers falls back to another face; apt-get install fonts-noto-core',
    };
  }
  return {
    ...base,
    status: 'warn',
    summary: 'no fonts installed',
    fix: 'Text in generic families (sans-serif...) would render as empty boxes; apt-get install fonts-noto-core',
  };
}

/** `installed`: each bundled `@fontsource` package id and whether it resolves from here. */
export function checkFontPackages(installed: { id: string; found: boolean }[]): CheckResult {
  const base = { id: 'font-packages', title: 'Font packages' };
  const missing = installed.filter((p) => !p.found).map((p) => p.id);
  if (missing.length === 0) {
    return {
      ...base,
      status: 'ok',
      summary: `${installed.length} bundled @fontsource families (named families and Google Fonts links render offline)`,
    };
  }
  return {
    ...base,
    status: 'warn',
    summary: `missing ${missing.map((id) => `@fontsource/${id}`).join(', ')}`,
    fix:
      'Compositions naming these families fall back to system fonts; reinstall Seekframe (npm install) or run npm i ' +
      missing.map((id) => `@fontsource/${id}`).join(' '),
  };
}

function emojiFont(families: string[]): CheckResult {
  const emoji = families.find((family) => /emoji/i.test(family));
  if (emoji) return { id: 'emoji-font', title: 'Emoji font', status: 'ok', summary: emoji };
  return {
    id: 'emoji-font',
    title: 'Emoji font',
    status: 'warn',
    summary: 'none found',
    fix: 'Emoji would render as empty boxes; apt-get install fonts-noto-color-emoji',
  };
}
