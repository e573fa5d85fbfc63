import { describe, expect, test } from 'vitest';
import { resolveVariables } from './resolve-variables.js';
import type { VariableDeclaration } from './variable-declarations.js';

const declarations: VariableDeclaration[] = [
  { id: 'title', type: 'string', label: 'Title', default: 'Default title' },
  { id: 'speed', type: 'number', label: 'Speed', default: 1 },
  { id: 'dark', type: 'boolean', label: 'Dark', default: false },
];

describe('resolveVariables', () => {
  test('defaults only', () => {
    expect(resolveVariables(declarations)).toEqual({ title: 'Default title', speed: 1, dark: false });
  });

  test('host values replace defaults key by key; keys the host does not set fall through', () => {
    expect(resolveVariables(declarations, { host: { title: 'Host title' } })).toEqual({ title: 'Host title', speed: 1, dark: false });
  });

  test('overrides beat host values; keys missing from the overrides fall through to host, then default', () => {
    const resolved = resolveVariables(declarations, { host: { title: 'Host title', speed: 2 }, overrides: { speed: 3 } });
    expect(resolved).toEqual({ title: 'Host title', speed: 3, dark: false });
  });

  test('overrides apply without a host layer', () => {
    expect(resolveVariables(declarations, { overrides: { dark: true } })).toEqual({ title: 'Default title', speed: 1, dark: true });
  });

  test('an explicit undefined falls through, while falsy values are kept', () => {
    const resolved = resolveVariables(declarations, { host: { speed: 0, title: '' }, overrides: { speed: undefined, dark: undefined } });
    expect(resolved).toEqual({ title: '', speed: 0, dark: false });
  });

  test('undeclared keys pass through (validateOverrides reports them)', () => {
    expect(resolveVariables([], { host: { a: 1 }, overrides: { b: 2 } })).toEqual({ a: 1, b: 2 });
  });

  test('returns a fresh object and does not touch the inputs', () => {
    const host = { title: 'H' };
    const resolved = resolveVariables(declarations, { host });
    resolved.title = 'changed';
    expect(host.title).toBe('H');
    expect(declarations[0]?.default).toBe('Default title');
  });
});
