import { describe, expect, it } from 'vitest';
import { batchRowsFromCsv } from './batch-csv-rows.js';
import type { VariableDeclaration } from './variable-declarations.js';

const declarations: VariableDeclaration[] = [
  { id: 'name', type: 'string', label: 'Name', default: 'You' },
  { id: 'score', type: 'number', label: 'Score', default: 0 },
  { id: 'dark', type: 'boolean', label: 'Dark', default: false },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  { id: 'words', type: 'captions', label: 'Words', default: [] },
];

describe('batchRowsFromCsv', () => {
  it('gives each cell the type its variable declares', () => {
    const rows = batchRowsFromCsv(
      [{ name: 'Ada', score: ' 42.5 ', dark: 'yes', accent: '#00ff00', words: '[{"text":"hi","start":0,"end":0.5}]' }],
      declarations,
    );
    expect(rows).toEqual([{ name: 'Ada', score: 42.5, dark: true, accent: '#00ff00', words: [{ text: 'hi', start: 0, end: 0.5 }] }]);
  });

  it('leaves an empty cell out, so the declared default applies', () => {
    expect(batchRowsFromCsv([{ name: 'Linus', score: '', dark: '' }], declarations)).toEqual([{ name: 'Linus' }]);
  });

  it('keeps a cell that does not read as its type as text, for the variable check to name', () => {
    expect(batchRowsFromCsv([{ score: 'many', dark: 'maybe', words: 'not json' }], declarations)).toEqual([
      { score: 'many', dark: 'maybe', words: 'not json' },
    ]);
  });

  it('keeps undeclared columns as text', () => {
    expect(batchRowsFromCsv([{ city: '2026' }], declarations)).toEqual([{ city: '2026' }]);
  });

  it('reads booleans in every documented spelling', () => {
    const values = ['true', 'TRUE', 'yes', '1', 'false', 'No', '0'].map((dark) => batchRowsFromCsv([{ dark }], declarations)[0]!.dark);
    expect(values).toEqual([true, true, true, true, false, false, false]);
  });
});
