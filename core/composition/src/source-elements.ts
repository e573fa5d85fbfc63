import { getAttr, hasAttr, listElements, parseHtml, type HtmlElement, type SourceLocation } from './html-tree.js';

/** An element of a composition file that can be a clip, as written in the source. */
export interface SourceElement {
  tag: string;
  /** `data-composition-id`, else `id` (the same precedence as the runtime's clip ids). */
  id?: string;
  /** Every attribute as written (decoded), in source order. */
  attributes: Array<[name: string, value: string]>;
  /** Where the start tag begins. */
  location: SourceLocation;
  /** Where the start tag ends (its `>`): findings inside this range are about the element. */
  startTagEnd: SourceLocation;
}

/** The elements the runtime may take as clips (core/runtime clip-timeline.ts reads the same set). */
function mayBeClip(element: HtmlElement): boolean {
  if (element.tagName === 'html') return false;
  if (element.tagName === 'video' || element.tagName === 'audio') return true;
  if (hasAttr(element, 'data-start') || hasAttr(element, 'data-composition-src') || hasAttr(element, 'data-composition-id')) return true;
  return (getAttr(element, 'class') ?? '').split(/\s+/).includes('clip');
}

/**
 * The clip-like elements of an HTML file in document order, with where each is written: the
 * preview's inspector maps a live clip back to its file and line with this.
 */
export function listSourceElements(html: string): SourceElement[] {
  return listElements(parseHtml(html))
    .filter(mayBeClip)
    .map((element) => {
      const loc = element.sourceCodeLocation;
      const start = loc ? { line: loc.startLine, column: loc.startCol } : { line: 1, column: 1 };
      const tagEnd = loc?.startTag ? { line: loc.startTag.endLine, column: loc.startTag.endCol } : start;
      const id = getAttr(element, 'data-composition-id') || getAttr(element, 'id');
      return {
        tag: element.tagName,
        ...(id ? { id } : {}),
        attributes: element.attrs.map((a) => [a.name, a.value] as [string, string]),
        location: start,
        startTagEnd: tagEnd,
      };
    });
}
