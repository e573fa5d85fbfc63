import { describe, expect, test } from 'vitest';
import { parseVariableDeclarations, parseVariableDeclarationsAttribute } from './parse-variable-declarations.js';
import { VariableDeclarationSchema, VariableDeclarationsSchema } from './variable-declarations.js';

const rulesOf = (json: unknown) => parseVariableDeclarations(json).problems.map((p) => p.rule);

const valid = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello', placeholder: 'Type…', maxLength: 20 },
  { id: 'speed', type: 'number', label: 'Speed', default: 1.5, min: 0, max: 3, step: 0.5, unit: 'x' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#FF8800' },
  { id: 'dark', type: 'boolean', label: 'Dark mode', default: false },
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

describe('parseVariableDeclarations', () => {
  test('accepts one declaration of every type and keeps their fields', () => {
    const result = parseVariableDeclarations(valid);
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.declarations.map((d) => d.type)).toEqual(['string', 'number', 'color', 'boolean', 'enum']);
    expect(result.declarations[1]).toMatchObject({ min: 0, max: 3, step: 0.5, unit: 'x' });
    expect(VariableDeclarationsSchema.safeParse(valid).success).toBe(true);
  });

  test('the whole value must be an array', () => {
    const result = parseVariableDeclarations({ id: 'x' });
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({ index: -1, rule: 'variables/not-array' })]);
  });

  test('each entry must be an object', () => {
    expect(rulesOf(['title'])).toEqual(['variables/not-object']);
  });

  test.each(['id', 'type', 'label', 'default'])('missing %s is reported with its field path', (field) => {
    const entry: Record<string, unknown> = { id: 'title', type: 'string', label: 'Title', default: 'x' };
    delete entry[field];
    const result = parseVariableDeclarations([entry]);
    expect(result.problems).toEqual([expect.objectContaining({ index: 0, path: field, rule: 'variables/missing-field' })]);
    expect(result.problems[0]?.message).toContain(`"${field}"`);
    expect(result.declarations).toEqual([]);
  });

  test('several missing fields are all reported', () => {
    expect(rulesOf([{ type: 'number' }])).toEqual(['variables/missing-field', 'variables/missing-field', 'variables/missing-field']);
  });

  test('an unknown type names the allowed ones', () => {
    const result = parseVariableDeclarations([{ id: 'x', type: 'date', label: 'X', default: '' }]);
    expect(result.problems[0]?.rule).toBe('variables/unknown-type');
    expect(result.problems[0]?.message).toContain('string, number, color, boolean, enum');
  });

  test.each([
    ['string', { default: 3 }],
    ['number', { default: '3' }],
    ['color', { default: 'red' }],
    ['color', { default: '#fff' }],
    ['boolean', { default: 'true' }],
    ['enum', { default: true, options: [{ value: 'a', label: 'A' }] }],
  ])('a %s default of the wrong type is variables/default-type', (type, extra) => {
    const result = parseVariableDeclarations([{ id: 'v', type, label: 'V', ...extra }]);
    expect(result.problems).toEqual([expect.objectContaining({ index: 0, path: 'default', rule: 'variables/default-type' })]);
  });

  test('a number default outside min/max is variables/default-type', () => {
    const below = parseVariableDeclarations([{ id: 'n', type: 'number', label: 'N', default: -1, min: 0 }]);
    expect(below.problems[0]).toMatchObject({ rule: 'variables/default-type', path: 'default' });
    expect(below.problems[0]?.message).toContain('below min 0');
    const above = parseVariableDeclarations([{ id: 'n', type: 'number', label: 'N', default: 11, max: 10 }]);
    expect(above.problems[0]?.message).toContain('above max 10');
  });

  test('min greater than max is an invalid field', () => {
    expect(rulesOf([{ id: 'n', type: 'number', label: 'N', default: 1, min: 5, max: 2 }])).toEqual(['variables/invalid-field']);
  });

  test('a string default longer than maxLength is variables/default-type', () => {
    const result = parseVariableDeclarations([{ id: 's', type: 'string', label: 'S', default: 'too long', maxLength: 3 }]);
    expect(result.problems[0]).toMatchObject({ rule: 'variables/default-type', path: 'default' });
    expect(result.problems[0]?.message).toContain('maxLength is 3');
  });

  test('an enum default that is not among the options is variables/default-type', () => {
    const result = parseVariableDeclarations([{ id: 'e', type: 'enum', label: 'E', default: 'c', options: [{ value: 'a', label: 'A' }] }]);
    expect(result.problems[0]).toMatchObject({ rule: 'variables/default-type', path: 'default' });
    expect(result.problems[0]?.message).toContain('"a"');
  });

  test('an enum without options or with an empty list is variables/enum-empty', () => {
    expect(rulesOf([{ id: 'e', type: 'enum', label: 'E', default: 'a', options: [] }])).toEqual(['variables/enum-empty']);
    expect(rulesOf([{ id: 'e', type: 'enum', label: 'E', default: 'a' }])).toEqual(['variables/enum-empty']);
  });

  test('repeated enum option values are variables/enum-duplicate-option', () => {
    const result = parseVariableDeclarations([
      {
        id: 'e',
        type: 'enum',
        label: 'E',
        default: 'a',
        options: [
          { value: 'a', label: 'A' },
          { value: 'a', label: 'Again' },
        ],
      },
    ]);
    expect(result.problems).toEqual([expect.objectContaining({ rule: 'variables/enum-duplicate-option', path: 'options.1.value' })]);
  });

  test('an enum option without a label is an invalid field', () => {
    const result = parseVariableDeclarations([{ id: 'e', type: 'enum', label: 'E', default: 'a', options: [{ value: 'a' }] }]);
    expect(result.problems).toEqual([expect.objectContaining({ rule: 'variables/invalid-field', path: 'options.0.label' })]);
  });

  test('empty id or label is an invalid field', () => {
    expect(rulesOf([{ id: '', type: 'boolean', label: 'B', default: true }])).toEqual(['variables/invalid-field']);
    expect(rulesOf([{ id: 'b', type: 'boolean', label: '', default: true }])).toEqual(['variables/invalid-field']);
  });

  test('a repeated id is variables/duplicate-id and only the first is kept', () => {
    const result = parseVariableDeclarations([
      { id: 'x', type: 'boolean', label: 'X', default: true },
      { id: 'x', type: 'string', label: 'X again', default: 'y' },
    ]);
    expect(result.problems).toEqual([expect.objectContaining({ index: 1, path: 'id', rule: 'variables/duplicate-id' })]);
    expect(result.declarations).toEqual([{ id: 'x', type: 'boolean', label: 'X', default: true }]);
    expect(VariableDeclarationsSchema.safeParse([valid[3], valid[3]]).success).toBe(false);
  });

  test('good declarations survive next to a broken one', () => {
    const result = parseVariableDeclarations([valid[0], { id: 'broken', type: 'color', label: 'B', default: 1 }, valid[3]]);
    expect(result.ok).toBe(false);
    expect(result.declarations.map((d) => d.id)).toEqual(['title', 'dark']);
    expect(result.problems.map((p) => p.index)).toEqual([1]);
  });

  test('the union schema narrows by type', () => {
    const parsed = VariableDeclarationSchema.parse(valid[4]);
    expect(parsed.type === 'enum' && parsed.options.length).toBe(2);
  });
});

describe('parseVariableDeclarationsAttribute', () => {
  test('reports malformed JSON with the parser reason', () => {
    const result = parseVariableDeclarationsAttribute("[{id: 'x'}]");
    expect(result.ok).toBe(false);
    expect(result.malformedJson).toBeTruthy();
  });
  test('parses and validates valid JSON', () => {
    expect(parseVariableDeclarationsAttribute(JSON.stringify(valid)).declarations).toHaveLength(5);
  });
});
