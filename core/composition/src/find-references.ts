import { attrLocation, getAttr, listElements, parseHtml } from './html-tree.js';
import { isRemoteUrl, resolveSourcePath } from './posix-path.js';

export interface FileReference {
  /** `#id` when the element has one, else `tag[attribute="value"]`. */
  selector: string;
  /** Where the attribute is written in the document. */
  line: number;
  column: number;
}

const ATTRIBUTES = ['src', 'href', 'poster', 'data-composition-src'] as const;

/**
 * The elements of an HTML document (at `documentPath`, relative to the project root) whose src,
 * href, poster or data-composition-src names `file` (also relative to the root): which element
 * uses a file the server could not find, for a message that points at the line to fix.
 */
export function findReferences(html: string, documentPath: string, file: string): FileReference[] {
  const out: FileReference[] = [];
  for (const element of listElements(parseHtml(html))) {
    for (const name of ATTRIBUTES) {
      const value = getAttr(element, name);
      if (!value || isRemoteUrl(value) || resolveSourcePath(documentPath, value) !== file) continue;
      const id = getAttr(element, 'id');
      const { line, column } = attrLocation(element, name);
      out.push({ selector: id ? `#${id}` : `${element.tagName}[${name}="${value}"]`, line, column });
    }
  }
  return out;
}
