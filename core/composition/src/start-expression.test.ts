import { describe, expect, test } from 'vitest';
import { parseStartExpression, splitTrailingOffset } from './start-expression.js';

describe('parseStartExpression', () => {
  test.each([
    ['0', 0],
    ['1.5', 1.5],
    [' 2 ', 2],
    ['.25', 0.25],
  ])('%j is seconds', (raw, seconds) => {
    expect(parseStartExpression(raw)).toEqual({ kind: 'seconds', seconds });
  });

  test.each([
    ['intro', 'intro', 0],
    ['scene-2', 'scene-2', 0],
    ['intro + 0.5', 'intro', 0.5],
    ['intro+1', 'intro', 1],
    ['intro - 0.25', 'intro', -0.25],
    ['outro.part:1 + 2', 'outro.part:1', 2],
  ])('%j refers to %j with offset %d', (raw, id, offset) => {
    expect(parseStartExpression(raw)).toEqual({ kind: 'ref', id, offset });
  });

  test.each(['', '   ', '-1', '1.5s', 'intro + x', '+ 1', '3 + intro', 'a b'])('%j is invalid with a reason', (raw) => {
    const expr = parseStartExpression(raw);
    expect(expr.kind).toBe('invalid');
    expect(expr.kind === 'invalid' && expr.reason.length).toBeGreaterThan(10);
  });
});

describe('splitTrailingOffset', () => {
  test('reads "scene-2" as scene minus 2', () => {
    expect(splitTrailingOffset('scene-2')).toEqual({ id: 'scene', offset: -2 });
    expect(splitTrailingOffset('scene-0.5')).toEqual({ id: 'scene', offset: -0.5 });
  });
  test('leaves ids without a numeric tail alone', () => {
    expect(splitTrailingOffset('intro')).toBeUndefined();
    expect(splitTrailingOffset('a-b')).toBeUndefined();
  });
});
