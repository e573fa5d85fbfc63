import { describe, expect, test } from 'vitest';
import { jsonErrorOffset, locateJsonPath, shortJsonError, splitDottedPath } from './locate-json-path.js';

const text = '[ {"id":"a","opts":[{"v":1},{"v":"x\\"]}"}]}, {"id" : "b", "n": {"deep": [1, 2, {"k": null}]}} ]';

describe('locateJsonPath', () => {
  test('finds array items and object keys, skipping nested values and tricky strings', () => {
    expect(text.slice(locateJsonPath(text, [0]))).toMatch(/^\{"id":"a"/);
    expect(text.slice(locateJsonPath(text, [1]))).toMatch(/^\{"id" : "b"/);
    expect(text.slice(locateJsonPath(text, [0, 'opts', 1, 'v']))).toMatch(/^"v":"x/);
    expect(text.slice(locateJsonPath(text, [1, 'n', 'deep', 2, 'k']))).toMatch(/^"k": null/);
    expect(text.slice(locateJsonPath(text, [1, 'id']))).toMatch(/^"id" : "b"/);
  });

  test('stops at the deepest part of the path that exists', () => {
    expect(text.slice(locateJsonPath(text, [1, 'missing']))).toMatch(/^\{"id" : "b"/);
    expect(text.slice(locateJsonPath(text, [5, 'id']))).toBe(text);
    expect(locateJsonPath(text, [])).toBe(0);
    expect(locateJsonPath('  {"a":1}', ['a', 0])).toBe(3);
  });
});

test('splitDottedPath', () => {
  expect(splitDottedPath('options.1.value')).toEqual(['options', 1, 'value']);
  expect(splitDottedPath('')).toEqual([]);
});

const parseError = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected invalid JSON');
};

test('jsonErrorOffset reads the position from real JSON.parse errors', () => {
  expect(jsonErrorOffset(parseError('[1 2]'), '[1 2]')).toBe(3);
  expect(jsonErrorOffset(parseError('{"a":'), '{"a":')).toBe(5);
  expect(jsonErrorOffset('Unexpected token at line 2 column 3 of the JSON data', '[\n  x]')).toBe(4);
  expect(jsonErrorOffset('no position', 'x')).toBeUndefined();
});

test('shortJsonError drops the echoed input', () => {
  const message = parseError('[1,]');
  expect(shortJsonError(message)).not.toContain('[1,]');
  expect(shortJsonError('Expected property name in JSON at position 2')).toBe('Expected property name in JSON at position 2');
});
