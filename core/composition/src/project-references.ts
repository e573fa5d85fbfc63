import type { DefaultTreeAdapterTypes } from 'parse5';
import {
  attrLocation,
  elementLocation,
  getAttr,
  listElements,
  offsetToLocation,
  parseHtml,
  type HtmlElement,
  type SourceLocation,
} from './html-tree.js';
import { dirnamePosix, normalizePosixPath } from './posix-path.js';

/**
 * The project files a composition's pages will load, read from their source the way the browser
 * resolves them against the render's project server: a path is relative to the document (or to
 * the stylesheet that names it), `/x` is the project folder, `..` stops at the project folder,
 * query and fragment are dropped, `%20` is a space. What a script builds at run time is not seen.
 */
export interface ProjectReference {
  /** The project path as the page will ask for it, relative to the project folder (`img/logo.png`). */
  path: string;
  /** As written (`./img/logo.png?v=2`). */
  written: string;
  /** What names it, for messages: `<img src>`, `url() in style.css`. */
  by: string;
  /** The file that names it (as the caller gave it) and where. */
  file: string;
  at: SourceLocation;
}

/** Elements and the attributes by which the browser loads a file while the page renders. */
const LOADING: Record<string, readonly string[]> = {
  img: ['src'],
  script: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src'],
  track: ['src'],
  iframe: ['src'],
  embed: ['src'],
  object: ['data'],
  image: ['href', 'xlink:href'],
  input: ['src'],
};
/** `<link rel>` values whose href the browser fetches. */
const FETCHED_LINKS = new Set(['stylesheet', 'preload', 'modulepreload', 'prefetch']);
/** Not a project file: a scheme (`https:`, `data:`, `blob:`, `javascript:`), protocol-relative, or a fragment only. */
const NOT_A_FILE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;
/** Filled in by a script or a template engine: nothing to check in the source. */
const PLACEHOLDER = /\$\{|\{\{|<%/;
/** `url(...)` and `@import "..."` in CSS. */
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/g;

/**
 * The references of one HTML document at `file` (its project path is `documentPath`, relative to
 * the project folder): loading attributes, `<link>`s the browser fetches, inline `<style>` and
 * `style=""` url()s. A document with a `<base href>` is skipped (its references resolve against
 * something else). Data-composition-src is lint's (subcomposition/missing-src-file).
 */
export function htmlReferences(html: string, file: string, documentPath: string): ProjectReference[] {
  const elements = listElements(parseHtml(html));
  if (elements.some((element) => element.tagName === 'base' && getAttr(element, 'href') !== undefined)) return [];
  const references: ProjectReference[] = [];
  const add = (written: string, by: string, at: SourceLocation): void => {
    const path = resolveReference(documentPath, written);
    if (path !== undefined) references.push({ path, written, by, file, at });
  };
  for (const element of elements) {
    for (const name of LOADING[element.tagName] ?? []) {
      const value = getAttr(element, name);
      if (value !== undefined) add(value, `<${element.tagName} ${name}>`, attrLocation(element, name));
    }
    if (element.tagName === 'link') {
      const rel = (getAttr(element, 'rel') ?? '').toLowerCase().split(/\s+/);
      const href = getAttr(element, 'href');
      if (href !== undefined && rel.some((r) => FETCHED_LINKS.has(r)))
        add(href, `<link rel="${getAttr(element, 'rel')}" href>`, attrLocation(element, 'href'));
    }
    const style = getAttr(element, 'style');
    if (style) for (const url of cssUrls(style)) add(url.value, 'url() in style=""', attrLocation(element, 'style'));
    if (element.tagName === 'style') {
      for (const url of cssUrls(textOf(element))) add(url.value, 'url() in <style>', elementLocation(element));
    }
  }
  return references;
}

/** The references of a stylesheet at project path `cssPath` (its url()s and @imports resolve against it). */
export function cssReferences(css: string, file: string, cssPath: string): ProjectReference[] {
  const out: ProjectReference[] = [];
  for (const url of cssUrls(css)) {
    const path = resolveReference(cssPath, url.value);
    if (path !== undefined)
      out.push({
        path,
        written: url.value,
        by: url.isImport ? `@import in ${cssPath}` : `url() in ${cssPath}`,
        file,
        at: offsetToLocation(css, url.offset),
      });
  }
  return out;
}

/**
 * A written reference as the project path the browser asks for, or undefined when it is not a
 * project file (remote, data:, a fragment, a placeholder, empty).
 */
export function resolveReference(fromPath: string, written: string): string | undefined {
  const value = written.trim().replace(/\\/g, '/');
  if (value === '' || NOT_A_FILE.test(value) || PLACEHOLDER.test(value)) return undefined;
  const clean = value.replace(/[?#].*$/, '');
  if (clean === '') return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(clean);
  } catch {
    decoded = clean;
  }
  const base = decoded.startsWith('/') ? decoded : `${dirnamePosix(`/${fromPath}`)}/${decoded}`;
  // A URL path cannot climb above the site's root: `/../x` is `/x`.
  const path = normalizePosixPath(base).slice(1);
  return path === '' ? undefined : path;
}

function cssUrls(css: string): { value: string; offset: number; isImport: boolean }[] {
  const out: { value: string; offset: number; isImport: boolean }[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => ' '.repeat(comment.length));
  for (const match of text.matchAll(CSS_URL)) {
    const value = match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? '';
    out.push({ value, offset: match.index ?? 0, isImport: match[4] !== undefined || match[5] !== undefined });
  }
  return out;
}

function textOf(element: HtmlElement): string {
  return element.childNodes.map((node) => ('value' in node ? (node as DefaultTreeAdapterTypes.TextNode).value : '')).join('');
}
