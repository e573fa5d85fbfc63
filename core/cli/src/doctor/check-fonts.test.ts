import { describe, expect, it } from 'vitest';
import { checkFontPackages, checkFonts, parseFontFamilies } from './check-fonts.js';

describe('font checks', () => {
  it('parses fc-list family output, splitting aliases and dropping duplicates', () => {
    const output = 'Noto Sans,Noto Sans Regular\nDejaVu Serif\nNoto Sans\n\nNoto Color Emoji\n';
    expect(parseFontFamilies(output)).toEqual(['DejaVu Serif', 'Noto Color Emoji', 'Noto Sans', 'Noto Sans Regular']);
  });

  it('is ok with Noto Sans and an emoji font', () => {
    const results = checkFonts(['Noto Sans', 'Noto Color Emoji']);
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['fonts', 'ok'],
      ['emoji-font', 'ok'],
    ]);
  });

  it('warns without Noto Sans, without any font, without emoji, and without fc-list', () => {
    const [text, emoji] = checkFonts(['DejaVu Sans']);
    expect(text).toMatchObject({ status: 'warn', summary: '1 families, no Noto Sans' });
    expect(emoji).toMatchObject({ status: 'warn' });
    expect(emoji?.fix).toContain('fonts-noto-color-emoji');
    expect(checkFonts([])[0]).toMatchObject({ status: 'warn', summary: 'no fonts installed' });
    expect(checkFonts(null)).toEqual([expect.objectContaining({ id: 'fonts', status: 'warn' })]);
  });

  it('checks the bundled @fontsource packages', () => {
    expect(checkFontPackages([{ id: 'inter', found: true }])).toMatchObject({ id: 'font-packages', status: 'ok' });
    const missing = checkFontPackages([
      { id: 'inter', found: true },
      { id: 'arimo', found: false },
    ]);
    expect(missing).toMatchObject({ status: 'warn', summary: 'missing @fontsource/arimo' });
    expect(missing.fix).toContain('npm i @fontsource/arimo');
  });
});
