import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { remoteUrl, ROOT_ROUTES, type CompositionRoutes } from './composition-files/composition-routes.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Attributes that make the browser fetch a URL as soon as the document is parsed. */
const FETCHING_ATTRIBUTES: Record<string, readonly string[]> = {
  script: ['src'],
  img: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src'],
  track: ['src'],
  link: ['href'],
  image: ['href', 'xlink:href'],
};

/** The render's project server's remote route (a server that mounts the composition at `/`). */
export const REMOTE_ROUTE = ROOT_ROUTES.remote;

/**
 * Points static remote references (`<script src="https://…">`, `<link href>`, `<img src>`, media)
 * at the project server's remote route, which answers npm CDN URLs from installed packages and
 * fetches everything else with a time limit. Doing it on the served text keeps the engine out of
 * it and needs no request interception in the browser. Only the attribute values change; the rest
 * of the author's markup is left byte for byte.
 */
export function rewriteRemoteReferences(html: string, routes: CompositionRoutes = ROOT_ROUTES): string {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: Node): void => {
    if ('tagName' in node) collect(node, html, edits, routes);
    const children = 'content' in node && node.content ? node.content.childNodes : 'childNodes' in node ? node.childNodes : [];
    for (const child of children) visit(child);
  };
  visit(document);
  edits.sort((a, b) => b.start - a.start);
  let out = html;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function collect(element: Element, html: string, edits: { start: number; end: number; text: string }[], routes: CompositionRoutes): void {
  const names = FETCHING_ATTRIBUTES[element.tagName];
  if (!names) return;
  for (const attr of element.attrs) {
    const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
    if (!names.includes(name) || !/^\s*https?:\/\//i.test(attr.value)) continue;
    const location = element.sourceCodeLocation?.attrs?.[name];
    if (!location) continue;
    const original = html.slice(location.startOffset, location.endOffset);
    const eq = original.indexOf('=');
    const proxied = remoteUrl(routes, attr.value.trim());
    edits.push({ start: location.startOffset, end: location.endOffset, text: `${original.slice(0, eq + 1)}"${proxied}"` });
  }
}
