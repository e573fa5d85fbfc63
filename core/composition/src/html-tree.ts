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
export function listElements(document: HtmlDocument): HtmlElement[] {
  const out: HtmlElement[] = [];
  const visit = (nodes: DefaultTreeAdapterTypes.ChildNode[]): void => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      out.push(node);
      visit(node.childNodes);
      if (node.tagName === 'template') visit((node as DefaultTreeAdapterTypes.Template).content.childNodes);
    }
  };
  visit(document.childNodes);
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
