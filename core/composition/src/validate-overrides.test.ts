import { describe, expect, test } from 'vitest';
import { validateOverrides } from './validate-overrides.js';
import type { VariableDeclaration } from './variable-declarations.js';

const declarations: VariableDeclaration[] = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hi', maxLength: 5 },
  { id: 'speed', type: 'number', label: 'Speed', default: 1, min: 0, max: 2 },
  { id: 'accent', type: 'color', label: 'Accent', default: '#000000' },
  { id: 'dark', type: 'boolean', label: 'Dark', default: false },
  {
    id: 'layout',
    type: 'enum',
    label: 'Layout',
    default: 'grid',
    options: [
      { value: 'grid', label: 'Grid' },
      { value: 'list', label: 'List' },
    ],
  },
];

describe('validateOverrides', () => {
  test('values that fit give no issues', () => {
    expect(validateOverrides(declarations, { title: 'Yo', speed: 2, accent: '#aBcDeF', dark: true, layout: 'list' })).toEqual([]);
  });

  test('undefined values are ignored', () => {
    expect(validateOverrides(declarations, { title: undefined, nope: undefined })).toEqual([]);
  });

  test('undeclared keys', () => {
    const issues = validateOverrides(declarations, { colour: '#ffffff' });
    expect(issues).toEqual([expect.objectContaining({ kind: 'undeclared', id: 'colour', actual: '#ffffff' })]);
    expect(issues[0]?.message).toContain('declared: title, speed, accent, dark, layout');
  });

  test.each([
    ['title', 5, 'string'],
    ['speed', '1', 'number'],
    ['speed', Number.NaN, 'number'],
    ['dark', 'true', 'boolean'],
    ['accent', 42, 'color #rrggbb'],
  ])('%s = %j is a type-mismatch', (id, value, expected) => {
    expect(validateOverrides(declarations, { [id]: value })).toEqual([
      expect.objectContaining({ kind: 'type-mismatch', id, expected, actual: value }),
    ]);
  });

  test('numbers outside min/max are type-mismatches that say so', () => {
    const [low] = validateOverrides(declarations, { speed: -1 });
    expect(low).toMatchObject({ kind: 'type-mismatch', expected: 'number >= 0' });
    expect(low?.message).toContain('below its min 0');
    const [high] = validateOverrides(declarations, { speed: 2.5 });
    expect(high?.message).toContain('above its max 2');
  });

  test('strings over maxLength are type-mismatches that say so', () => {
    const [issue] = validateOverrides(declarations, { title: 'far too long' });
    expect(issue).toMatchObject({ kind: 'type-mismatch', id: 'title' });
    expect(issue?.message).toContain('maxLength 5');
  });

  test('malformed colors are type-mismatches that say so', () => {
    for (const bad of ['red', '#fff', '#12345g', 'ff8800']) {
      const [issue] = validateOverrides(declarations, { accent: bad });
      expect(issue).toMatchObject({ kind: 'type-mismatch', id: 'accent' });
      expect(issue?.message).toContain('malformed color');
    }
  });

  test('enum values outside the options are enum-out-of-range', () => {
    const [issue] = validateOverrides(declarations, { layout: 'stack' });
    expect(issue).toMatchObject({ kind: 'enum-out-of-range', id: 'layout', actual: 'stack', expected: 'one of "grid", "list"' });
  });

  test('reports one issue per bad key', () => {
    const kinds = validateOverrides(declarations, { a: 1, speed: 'fast', layout: 'x', dark: true }).map((i) => i.kind);
    expect(kinds).toEqual(['undeclared', 'type-mismatch', 'enum-out-of-range']);
  });
});
