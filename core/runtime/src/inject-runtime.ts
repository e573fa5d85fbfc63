import type { InjectedConfig } from './injected-config.js';

/**
 * Serialises a value for an inline `<script>`: `</script`, `<!--` and U+2028/9 cannot end or
 * corrupt the script element when escaped as JSON unicode escapes.
 */
function toInlineScriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A runtime bundle may contain the text `</script` in a string; break it so the parser does not. */
function escapeScriptSource(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const HEAD_OPEN = /<head(?=[\s>/])[^>]*>/i;
const HTML_OPEN = /<html(?=[\s>/])[^>]*>/i;
const DOCTYPE = /^(\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>)/i;

/** The start of what `injectRuntime` writes; a page containing it already has the runtime. */
export const RUNTIME_MARKER = '<script>window.__seekframeConfig=';

/** True when `html` came from `injectRuntime` (a server injected it), so a player must not inject again. */
export function isRuntimeInjected(html: string): boolean {
  return html.includes(RUNTIME_MARKER);
}

/**
 * Puts the config script and the runtime bundle first inside `<head>`, so the runtime sees every
 * author script. Creates `<head>` when the document has none. Pure string work: it runs on the
 * server for every HTML file served, and must not reorder or reformat the author's markup.
 */
export function injectRuntime(html: string, config: InjectedConfig, runtimeSource: string): string {
  const scripts = `${RUNTIME_MARKER}${toInlineScriptJson(config)};</script>` + `<script>${escapeScriptSource(runtimeSource)}</script>`;
  const head = searchOutsideComments(html, HEAD_OPEN);
  if (head) return insertAt(html, head.index + head.length, scripts);
  const htmlTag = searchOutsideComments(html, HTML_OPEN);
  if (htmlTag) return insertAt(html, htmlTag.index + htmlTag.length, `<head>${scripts}</head>`);
  const doctype = DOCTYPE.exec(html);
  const at = doctype ? (doctype[1] as string).length : 0;
  return insertAt(html, at, `<head>${scripts}</head>`);
}

function insertAt(text: string, index: number, insert: string): string {
  return text.slice(0, index) + insert + text.slice(index);
}

/** Finds the first match of `pattern` that is not inside an HTML comment (`<!-- <head> -->`). */
function searchOutsideComments(html: string, pattern: RegExp): { index: number; length: number } | undefined {
  const blanked = html.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => ' '.repeat(comment.length));
  // Stop at the first <body> or content tag: a "<head" after it would be text or a stray tag.
  const match = pattern.exec(blanked);
  if (!match) return undefined;
  const body = /<body(?=[\s>/])/i.exec(blanked);
  if (body && body.index < match.index) return undefined;
  return { index: match.index, length: match[0].length };
}
