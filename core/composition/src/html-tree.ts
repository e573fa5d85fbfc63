import { parse, type DefaultTreeAdapterTypes } from 'parse5';

export type HtmlElement = DefaultTreeAdapterTypes.Element;
export type HtmlDocument = DefaultTreeAdapterTypes.Document;

/** 1-based line and column in the source file. */
export interface SourceLocation {
  line: number;
  column: number;
}

export function parseHtml(html: string): HtmlDocument {
  return parse(html, { sourceCodeLocationInfo: true });
}

/** Every element in document order, including those inside `<template>` content. */
export function listElements(doc: HtmlDocument): HtmlElement[] {
  const out: HtmlElement[] = [];
  const visit = (nodes: DefaultTreeAdapterTypes.ChildNode[]): void => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      out.push(node);
      visit(node.childNodes);
      if (node.tagName === 'template') visit((node as DefaultTreeAdapterTypes.Template).content.childNodes);
    }
  };
  visit(doc.childNodes);
  return out;
}

export function getAttr(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

export function hasAttr(element: HtmlElement, name: string): boolean {
  return element.attrs.some((a) => a.name === name);
}

/** Where the element starts; an implied element (e.g. `<html>` missing from the source) is 1:1. */
export function elementLocation(element: HtmlElement): SourceLocation {
  const loc = element.sourceCodeLocation;
  return loc ? { line: loc.startLine, column: loc.startCol } : { line: 1, column: 1 };
}

/** Where the attribute is written, falling back to the element. */
export function attrLocation(element: HtmlElement, name: string): SourceLocation {
  const loc = element.sourceCodeLocation?.attrs?.[name];
  return loc ? { line: loc.startLine, column: loc.startCol } : elementLocation(element);
}

/**
 * Maps an offset inside an attribute's value to a source position. Returns undefined when the
 * written value differs from the decoded one (entities such as `&quot;`), because offsets into
 * the decoded text would then point at the wrong character.
 */
export function attrValueLocator(source: string, element: HtmlElement, name: string): ((offset: number) => SourceLocation) | undefined {
  const loc = element.sourceCodeLocation?.attrs?.[name];
  const value = getAttr(element, name);
  if (!loc || value === undefined) return undefined;
  const written = source.slice(loc.startOffset, loc.endOffset);
  const eq = written.indexOf('=');
  if (eq < 0) return undefined;
  let start = eq + 1;
  while (start < written.length && ' \t\r\n'.includes(written[start] as string)) start++;
  if (written[start] === '"' || written[start] === "'") start++;
  if (written.slice(start, start + value.length) !== value) return undefined;
  const base = loc.startOffset + start;
  return (offset) => offsetToLocation(source, base + offset);
}

/** 1-based line and column of an offset into `source`. */
export function offsetToLocation(source: string, offset: number): SourceLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
