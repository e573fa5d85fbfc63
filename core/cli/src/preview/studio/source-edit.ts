/**
 * The smallest textual edits of an HTML file: one attribute's value replaced where it is written
 * (found with parse5's source locations), everything else left byte for byte: formatting,
 * comments, attribute order, quotes. Pure string work, tested without a server.
 */
import { SeekframeError } from '@seekframe/composition';
import { parse, type DefaultTreeAdapterTypes } from 'parse5';

type Element = DefaultTreeAdapterTypes.Element;
type Location = NonNullable<Element['sourceCodeLocation']>;

/** Set `attribute` of the element whose start tag begins at `line`:`column` (1-based) to `value` (plain text, not yet escaped). */
export interface AttributeChange {
  line: number;
  column: number;
  attribute: string;
  value: string;
}

/** A replacement of `[start, end)` by `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Every element in document order, `<template>` content included (as the composition's own parser lists them). */
export function elementsOf(html: string): Element[] {
  const out: Element[] = [];
  const visit = (nodes: DefaultTreeAdapterTypes.ChildNode[]): void => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      out.push(node);
      visit(node.childNodes);
      if (node.tagName === 'template') visit((node as DefaultTreeAdapterTypes.Template).content.childNodes);
    }
  };
  visit(parse(html, { sourceCodeLocationInfo: true }).childNodes);
  return out;
}

/** The element whose start tag is written at `line`:`column`, or an `invalid-edit` error naming the place. */
export function elementAt(
  elements: readonly Element[],
  line: number,
  column: number,
  file: string,
): Element & { sourceCodeLocation: Location } {
  const found = elements.find((el) => el.sourceCodeLocation?.startLine === line && el.sourceCodeLocation.startCol === column);
  if (!found?.sourceCodeLocation?.startTag) {
    throw new SeekframeError(
      'invalid-edit',
      `${file} has no element starting at line ${line}, column ${column}; the file changed since the page read it: reload the studio.`,
      { stage: 'serve', details: { file, line, column } },
    );
  }
  return found as Element & { sourceCodeLocation: Location };
}

/** Escapes `value` for an attribute written with `quote` ('' = unquoted, which becomes `"` when the value needs quotes). */
function writeValue(value: string, quote: string): string {
  if (quote === '' && /^[^\s"'=<>`&]+$/.test(value)) return value;
  const q = quote || '"';
  const escaped = value.replace(/&/g, '&amp;').replace(q === '"' ? /"/g : /'/g, q === '"' ? '&quot;' : '&#39;');
  return quote ? escaped : `"${escaped}"`;
}

/**
 * Where the value of `name` is written in `html`: the span inside its quotes and the quote used.
 * Undefined when the attribute is written without a value (`<div data-start>`).
 */
export function attributeValueSpan(
  html: string,
  element: Element,
  name: string,
): { start: number; end: number; quote: string } | undefined {
  const loc = element.sourceCodeLocation?.attrs?.[name];
  if (!loc) return undefined;
  const written = html.slice(loc.startOffset, loc.endOffset);
  const eq = written.indexOf('=');
  if (eq < 0) return undefined;
  let start = eq + 1;
  while (start < written.length && ' \t\r\n\f'.includes(written[start] as string)) start++;
  const quote = written[start] === '"' || written[start] === "'" ? (written[start] as string) : '';
  if (quote) start++;
  const end = quote ? written.length - 1 : written.length;
  return { start: loc.startOffset + start, end: loc.startOffset + end, quote };
}

/** The edit that sets `name` to `value` on `element`: its value replaced, or the attribute added after the last one. */
export function attributeEdit(html: string, element: Element & { sourceCodeLocation: Location }, name: string, value: string): TextEdit {
  const span = attributeValueSpan(html, element, name);
  if (span) return { start: span.start, end: span.end, text: writeValue(value, span.quote) };
  const loc = element.sourceCodeLocation;
  const attrLoc = loc.attrs?.[name];
  // Written bare (`data-start`): give it a value.
  if (attrLoc) return { start: attrLoc.endOffset, end: attrLoc.endOffset, text: `="${writeValue(value, '"')}"` };
  const tag = loc.startTag as NonNullable<Location['startTag']>;
  const lastAttr = Object.values(loc.attrs ?? {}).reduce(
    (end, a) => Math.max(end, a.endOffset),
    tag.startOffset + 1 + element.tagName.length,
  );
  return { start: lastAttr, end: lastAttr, text: ` ${name}="${writeValue(value, '"')}"` };
}

/** Applies non-overlapping edits (any order). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] as TextEdit).end > (sorted[i - 1] as TextEdit).start)
      throw new SeekframeError('invalid-edit', 'Two changes of one edit touch the same text; send each attribute once.', {
        stage: 'serve',
      });
  }
  let out = text;
  for (const edit of sorted) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** `html` with every change applied as the smallest edit; the rest of the file is unchanged. */
export function applyAttributeChanges(html: string, changes: readonly AttributeChange[], file: string): string {
  const elements = elementsOf(html);
  const edits = changes.map((change) =>
    attributeEdit(html, elementAt(elements, change.line, change.column, file), change.attribute, change.value),
  );
  return applyEdits(html, edits);
}
