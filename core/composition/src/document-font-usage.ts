import { parseFamilyList, scanCssFonts, scanScriptFonts } from './css-font-usage.js';
import { isGenericFontFamily } from './font-family-names.js';
import { parseGoogleFontsUrl } from './google-fonts-url.js';
import { attrLocation, getAttr, listElements, parseHtml, type SourceLocation } from './html-tree.js';
import { isRemoteUrl } from './posix-path.js';

export interface LocatedFontStack {
  families: string[];
  location: SourceLocation;
}

export interface DocumentFontUsage {
  /** Family lists from `<style>` elements, `style` and SVG `font-family` attributes and inline scripts (template content included). */
  stacks: LocatedFontStack[];
  /** Families defined by `@font-face` in `<style>` elements. */
  declared: string[];
  /** Google Fonts stylesheets: `<link href>` and `@import` in `<style>`. */
  googleUrls: { url: string; location: SourceLocation }[];
  /** Local stylesheets (`<link rel=stylesheet>`, `@import` in `<style>`), as written. */
  stylesheets: { href: string; location: SourceLocation }[];
}

/**
 * Every place an HTML document names or loads a font family. Linked local stylesheets are only
 * listed: the caller reads them (lint through its host, the server from disk) and scans them with
 * `scanCssFonts`.
 */
export function collectDocumentFonts(html: string): DocumentFontUsage {
  const usage: DocumentFontUsage = { stacks: [], declared: [], googleUrls: [], stylesheets: [] };
  const addImport = (href: string, location: SourceLocation): void => {
    if (parseGoogleFontsUrl(href)) usage.googleUrls.push({ url: href, location });
    else if (!isRemoteUrl(href)) usage.stylesheets.push({ href, location });
  };
  for (const element of listElements(parseHtml(html))) {
    const style = getAttr(element, 'style');
    if (style) {
      for (const stack of scanCssFonts(`x{${style}}`).stacks)
        usage.stacks.push({ families: stack.families, location: attrLocation(element, 'style') });
    }
    if (element.tagName === 'link' && /(?:^|\s)stylesheet(?:\s|$)/i.test(getAttr(element, 'rel') ?? '')) {
      const href = getAttr(element, 'href')?.trim();
      if (href) addImport(href, attrLocation(element, 'href'));
    }
    const svgFamily = getAttr(element, 'font-family');
    if (svgFamily) {
      const families = parseFamilyList(svgFamily).filter((name) => !isGenericFontFamily(name));
      if (families.length > 0) usage.stacks.push({ families, location: attrLocation(element, 'font-family') });
    }
    if (element.tagName === 'script' && getAttr(element, 'src') === undefined) {
      const code = element.childNodes[0];
      if (code && 'value' in code) {
        const start = code.sourceCodeLocation?.startOffset ?? element.sourceCodeLocation?.startOffset ?? 0;
        for (const families of scanScriptFonts(code.value)) usage.stacks.push({ families, location: locationAt(html, start) });
      }
    }
    if (element.tagName !== 'style') continue;
    const text = element.childNodes[0];
    if (!text || !('value' in text)) continue;
    const start = text.sourceCodeLocation?.startOffset ?? element.sourceCodeLocation?.startOffset ?? 0;
    const scan = scanCssFonts(text.value);
    usage.declared.push(...scan.declared);
    for (const stack of scan.stacks) usage.stacks.push({ families: stack.families, location: locationAt(html, start + stack.offset) });
    for (const href of scan.imports) addImport(href, locationAt(html, start));
  }
  return usage;
}

/** 1-based line and column of `offset` in `text`. */
export function locationAt(text: string, offset: number): SourceLocation {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
