import {
  collectDocumentFonts,
  fontPackageId,
  isRemoteUrl,
  parseGoogleFontsUrl,
  resolveSourcePath,
  scanCssFonts,
} from '@seekframe/composition';
import { parse } from 'parse5';
import { ROOT_ROUTES, type CompositionRoutes } from '../composition-files/composition-routes.js';
import { fontFaceCss } from './font-face-css.js';
import type { FindFont } from './font-faces.js';
import { rewriteFontCss } from './rewrite-font-css.js';

/** Marks the injected rules in the served page (tests and curious users look for it). */
export const NAMED_FONTS_ATTRIBUTE = 'data-seekframe-fonts';

export interface NamedFontsContext {
  /** The HTML file being served: its path relative to the composition folder (POSIX). */
  file: string;
  findFont: FindFont;
  /**
   * A linked local stylesheet's text by its path relative to the composition folder; undefined
   * when it cannot be read (absent, or refused by the host: a symlink out of an untrusted project).
   */
  readStylesheet(path: string): Promise<string | undefined>;
  /** Where the font files are served (default: at the root). */
  routes?: CompositionRoutes;
}

/**
 * Makes the fonts a document names deterministic: every family its CSS names (`<style>`, `style`
 * attributes, linked local stylesheets) that no `@font-face` or Google Fonts link loads, and that
 * an installed `@fontsource` package provides (directly, or through a system-name alias such as
 * Arial -> Arimo), gets `@font-face` rules under the authored name, served from the local font
 * route. An author-defined face of the same name beats a machine's installed font, so the result
 * no longer depends on fontconfig. `<style>` text also gets its Google Fonts imports and
 * fonts.gstatic.com faces pointed at local files (`rewriteFontCss`).
 */
export async function injectNamedFonts(html: string, context: NamedFontsContext): Promise<string> {
  const usage = collectDocumentFonts(html);
  const declared = new Set(usage.declared.map((n) => n.toLowerCase()));
  const named: string[] = usage.stacks.flatMap((s) => s.families);
  const googleUrls = usage.googleUrls.map((g) => g.url);
  const routes = context.routes ?? ROOT_ROUTES;
  const queue = usage.stylesheets.map((s) => resolveLocal(s.href, context.file));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const css = await context.readStylesheet(file).catch(() => undefined);
    if (css === undefined) continue;
    const scan = scanCssFonts(css);
    for (const name of scan.declared) declared.add(name.toLowerCase());
    named.push(...scan.stacks.flatMap((s) => s.families));
    for (const href of scan.imports) {
      if (parseGoogleFontsUrl(href)) googleUrls.push(href);
      else queue.push(resolveLocal(href, file));
    }
  }
  for (const url of googleUrls) for (const { family } of parseGoogleFontsUrl(url)?.families ?? []) declared.add(family.toLowerCase());

  const rules: string[] = [];
  const done = new Set<string>();
  for (const family of named) {
    const key = family.toLowerCase();
    if (declared.has(key) || done.has(key)) continue;
    done.add(key);
    const pkg = await context.findFont(fontPackageId(family));
    if (pkg) rules.push(fontFaceCss(pkg, { family, routes }));
  }
  const rewritten = await rewriteStyleElements(html, context.findFont, routes);
  if (rules.length === 0) return rewritten;
  return insertIntoHead(rewritten, `<style ${NAMED_FONTS_ATTRIBUTE}>\n${rules.join('\n')}\n</style>`);
}

/** A stylesheet href as a path inside the composition folder, or undefined (remote, or above the folder). */
function resolveLocal(href: string, fromFile: string): string | undefined {
  if (isRemoteUrl(href)) return undefined;
  let clean: string;
  try {
    clean = decodeURI(href);
  } catch {
    return undefined;
  }
  const file = resolveSourcePath(fromFile, clean);
  return file === '.' || file === '..' || file.startsWith('../') ? undefined : file;
}

async function rewriteStyleElements(html: string, findFont: FindFont, routes: CompositionRoutes): Promise<string> {
  if (!/fonts\.(?:googleapis|gstatic)\.com/i.test(html)) return html;
  const ranges: { start: number; end: number }[] = [];
  const visit = (node: any): void => {
    if (node.tagName === 'style') {
      const text = node.childNodes?.[0]?.sourceCodeLocation;
      if (text) ranges.push({ start: text.startOffset, end: text.endOffset });
    }
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(parse(html, { sourceCodeLocationInfo: true }));
  let out = html;
  for (const range of ranges.reverse()) {
    const css = out.slice(range.start, range.end);
    out = out.slice(0, range.start) + (await rewriteFontCss(css, findFont, routes)) + out.slice(range.end);
  }
  return out;
}

/** After `<head ...>` when written, else after `<html ...>` or the doctype: the parser puts a leading `<style>` in head. */
function insertIntoHead(html: string, insert: string): string {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const htmlElement = document.childNodes.find((n) => 'tagName' in n && n.tagName === 'html') as any;
  const head = htmlElement?.childNodes?.find((n: any) => n.tagName === 'head');
  const at = head?.sourceCodeLocation?.startTag?.endOffset ?? htmlElement?.sourceCodeLocation?.startTag?.endOffset ?? doctypeEnd(document);
  return html.slice(0, at) + insert + html.slice(at);
}

function doctypeEnd(document: any): number {
  const doctype = document.childNodes.find((n: any) => n.nodeName === '#documentType');
  return doctype?.sourceCodeLocation?.endOffset ?? 0;
}
