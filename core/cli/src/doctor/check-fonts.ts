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

function textFonts(families: string[]): CheckResult {
  const base = { id: 'fonts', title: 'Fonts' };
  const noto = families.includes('Noto Sans');
  if (noto) return { ...base, status: 'ok', summary: `Noto Sans and ${families.length - 1} other families` };
  if (families.length > 0) {
    return {
      ...base,
      status: 'warn',
      summary: `${families.length} families, no Noto Sans`,
      fix: 'Text in compositions that ask for Noto Sans (the starter does) falls back to another face; apt-get install fonts-noto-core',
    };
  }
  return {
    ...base,
    status: 'warn',
    summary: 'no fonts installed',
    fix: 'Text would render as empty boxes; apt-get install fonts-noto-core',
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
