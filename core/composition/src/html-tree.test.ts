import { expect, test } from 'vitest';
import { attrLocation, attrValueLocator, elementLocation, listElements, parseHtml } from './html-tree.js';

const source = `<html>\n<body>\n  <div id="x"\n     data-v='{\n  "a": 1}'></div>\n<template><p id="in"></p></template></body></html>`;
const elements = listElements(parseHtml(source));
const div = elements.find((e) => e.tagName === 'div')!;

test('lists elements in document order, including template content', () => {
  expect(elements.map((e) => e.tagName)).toEqual(['html', 'head', 'body', 'div', 'template', 'p']);
});

test('element and attribute locations are 1-based line:col', () => {
  expect(elementLocation(div)).toEqual({ line: 3, column: 3 });
  expect(attrLocation(div, 'data-v')).toEqual({ line: 4, column: 6 });
  expect(attrLocation(div, 'missing')).toEqual({ line: 3, column: 3 });
  // <head> is implied by the parser, so it has no location of its own.
  expect(elementLocation(elements[1]!)).toEqual({ line: 1, column: 1 });
});

test('attrValueLocator maps offsets inside a multi-line value', () => {
  const locate = attrValueLocator(source, div, 'data-v')!;
  expect(locate(0)).toEqual({ line: 4, column: 14 });
  expect(locate('{\n  '.length)).toEqual({ line: 5, column: 3 });
});

test('attrValueLocator gives up on entity-encoded values', () => {
  const html = '<div data-v="{&quot;a&quot;:1}"></div>';
  const el = listElements(parseHtml(html)).find((e) => e.tagName === 'div')!;
  expect(attrValueLocator(html, el, 'data-v')).toBeUndefined();
});
