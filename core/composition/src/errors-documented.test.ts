import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_DOCS } from './error-docs.js';
import { ERROR_CODES } from './errors.js';

/** The codes the manual's error reference (docs/reference/errors.md, generated) has a row for. */
function documentedCodes(): string[] {
  const page = readFileSync(new URL('../../../docs/reference/errors.md', import.meta.url), 'utf8');
  return [...page.matchAll(/^\| <code id="([a-z0-9-]+)">\1<\/code> \|/gm)].map((m) => m[1]!);
}

describe('error codes', () => {
  it('the generated error reference documents every code of the closed list, and only those', () => {
    const documented = documentedCodes();
    expect(
      [...ERROR_CODES].filter((code) => !documented.includes(code)),
      'codes missing from docs/reference/errors.md: run npm run docs:generate',
    ).toEqual([]);
    expect(
      documented.filter((code) => !(ERROR_CODES as readonly string[]).includes(code)),
      'documented codes that do not exist',
    ).toEqual([]);
    expect(new Set(documented).size, 'a code documented twice').toBe(documented.length);
    expect(new Set(ERROR_CODES).size, 'a code listed twice in errors.ts').toBe(ERROR_CODES.length);
  });

  it('says for every code when it happens and what to do', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_DOCS[code].when.length, `${code}: when`).toBeGreaterThan(10);
      expect(ERROR_DOCS[code].fix.length, `${code}: fix`).toBeGreaterThan(5);
    }
  });
});
