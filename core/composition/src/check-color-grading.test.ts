import { expect, test } from 'vitest';
import { variableReference } from './check-color-grading.js';

test('variableReference: only a whole-value $name or ${name} is a reference', () => {
  expect(variableReference('$warmth')).toBe('warmth');
  expect(variableReference('${brand-color}')).toBe('brand-color');
  expect(variableReference('$warmth + 1')).toBeUndefined();
  expect(variableReference('price $5')).toBeUndefined();
  expect(variableReference('${unclosed')).toBeUndefined();
  expect(variableReference(3)).toBeUndefined();
});
