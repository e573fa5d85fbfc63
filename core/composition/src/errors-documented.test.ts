import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.js';

/** The README's "Error codes" section: its table rows, first column, every `code` in it. */
function documentedCodes(): string[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n## Error codes\n');
  expect(start, 'README has a "## Error codes" section').toBeGreaterThan(0);
  const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!));
}

describe('error codes', () => {
  it('the README documents every code of the closed list, and only those', () => {
    const documented = documentedCodes();
    expect([...ERROR_CODES].filter((code) => !documented.includes(code)), 'codes missing from the README').toEqual([]);
    expect(documented.filter((code) => !(ERROR_CODES as readonly string[]).includes(code)), 'README codes that do not exist').toEqual([]);
    expect(new Set(ERROR_CODES).size, 'a code listed twice in errors.ts').toBe(ERROR_CODES.length);
  });
});
