import { toSeekframeError } from '@seekframe/composition';
import type { PrepareHtml } from '../create-runtime-injector.js';
import { injectNamedFonts } from '../fonts/inject-named-fonts.js';
import { rewriteFontCss } from '../fonts/rewrite-font-css.js';
import { rewriteRemoteReferences } from '../rewrite-remote-references.js';
import type { CompositionHost, ProjectFile } from './composition-host.js';
import { compositionRoutes, type CompositionRoutes } from './composition-routes.js';
import { resolveRemote } from './resolve-remote.js';
import { plainText, routeRequest } from './route-request.js';

export interface CompositionFilesOptions {
  host: CompositionHost;
  /** The entry document's path relative to the composition folder (`index.html`). */
  entry: string;
  /** The runtime injection every HTML document gets (createRuntimeInjector). */
  prepareHtml: PrepareHtml;
  /** URL path the files are served under, ending with `/` (default `/`). */
  base?: string;
}

/**
 * Answers one request for a composition's files. `rawPath` is the request's path as sent (still
 * percent-encoded, `..` not folded away by URL parsing), starting with the base.
 */
export type CompositionFiles = ((request: Request, rawPath?: string) => Promise<Response>) & { readonly routes: CompositionRoutes };

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The one rule for a composition's files, used by the render, `seekframe preview` and every
 * deploy template's preview (the same module, so a preview cannot show what the render would not):
 * - every HTML file: families named in its CSS get local `@font-face` rules from installed
 *   `@fontsource` packages, Google Fonts and fonts.gstatic.com references point at local files,
 *   static remote references (`<script src="https://…">`, `<link href>`, media) point at the
 *   remote route, and the runtime is injected (entry, sub-composition, `<template>` child or
 *   embedded page, each with its own config);
 * - stylesheets: Google Fonts imports and gstatic faces made local;
 * - the remote route: Google Fonts from `@fontsource`, npm CDN URLs from the installed package,
 *   the rest from the host's network (resolve-remote.ts);
 * - the font route: `@fontsource` woff2 files;
 * - `node_modules/<package>/<file>` that is not in the composition folder: the installed
 *   package's file, found the way Node finds packages (a composition takes a library from npm,
 *   `<script src="node_modules/gsap/dist/gsap.min.js">`, and works in a monorepo that hoists it);
 * - any other file as it is (with Range).
 * Where files come from is the host's business (composition-host.ts).
 */
export function createCompositionFiles(options: CompositionFilesOptions): CompositionFiles {
  const { host } = options;
  // Its own record of the remote URLs it wrote into what it served (the redirect's allow-list).
  const routes: CompositionRoutes = { ...compositionRoutes(options.base), named: new Set() };
  const fontsRest = routes.fonts.slice(routes.base.length);

  const serve = async (request: Request, rawPath = new URL(request.url).pathname): Promise<Response> => {
    const asked = routeRequest(request, rawPath, routes);
    if (asked instanceof Response) return asked;
    const { rest, remoteUrl } = asked;
    if (remoteUrl) return remote(remoteUrl, request);
    if (rest.startsWith(fontsRest)) {
      const [id, name, ...more] = rest.slice(fontsRest.length).split('/');
      const file = id && name && more.length === 0 ? await host.fontFile(safeDecode(id) ?? '', safeDecode(name) ?? '', request) : null;
      return file ?? plainText('font not installed', 404);
    }
    const path = safeDecode(rest);
    if (path === null) return plainText('bad path', 400);
    const found = await host.projectFile(path, request);
    if (found instanceof Response) return found;
    if (found) return serveProjectFile(found, request);
    const fromPackage = await npmPath(path);
    if (fromPackage) return fromPackage;
    host.reportMissing?.(path, request);
    return plainText('not found', 404);
  };

  const remote = async (url: string, request: Request): Promise<Response> => {
    let answer;
    try {
      answer = await resolveRemote(url, host, { routes, referrer: request.headers.get('referer') ?? undefined });
    } catch (error) {
      return plainText(error instanceof Error ? error.message : String(error), 502);
    }
    if (answer)
      return new Response(new Uint8Array(answer.body), { status: 200, headers: { 'content-type': answer.contentType, ...NO_STORE } });
    if (!routes.named!.has(url)) await learnNames(request);
    return notLocal(url, request, routes.named!.has(url));
  };

  // The page that asks may have been prepared by another instance of a serverless host (or before
  // a restart): the document in the request's Referer, else the entry, is prepared again here to
  // learn what it names. Only HTML documents of the composition name remote URLs for the redirect.
  const learnNames = async (request: Request): Promise<void> => {
    const pages = [options.entry];
    const referer = request.headers.get('referer');
    const from = referer ? parseUrl(referer) : null;
    const asked =
      from && from.origin === new URL(request.url).origin && from.pathname.startsWith(routes.base)
        ? safeDecode(from.pathname.slice(routes.base.length))
        : null;
    if (asked !== null && /(^|\/)$|\.html?$/i.test(asked) && !asked.startsWith('__seekframe/')) pages.unshift(asked);
    for (const page of pages) {
      const file = await host.projectFile(page).catch(() => null);
      if (file && !(file instanceof Response) && /\.html?$/i.test(file.path)) await prepareDocument(file).catch(() => undefined);
    }
  };

  // `node_modules/<pkg>/<file>` asks the one package resolver the CDN URLs use (it validates the
  // package name and keeps the path inside the package), with no version: whatever is installed.
  const npmPath = async (path: string): Promise<Response | null> => {
    const match = /^node_modules\/(.+)$/.exec(path);
    if (!match) return null;
    // A name the resolver refuses (`..`, an encoded separator) is no package: not found.
    const file = await host.packageFile(`https://cdn.jsdelivr.net/npm/${match[1]}`).catch(() => null);
    return file
      ? new Response(new Uint8Array(file.body), { status: 200, headers: { 'content-type': file.contentType, ...NO_STORE } })
      : null;
  };

  const serveProjectFile = async (file: ProjectFile, request: Request): Promise<Response> => {
    const lower = file.path.toLowerCase();
    if (lower.endsWith('.html') || lower.endsWith('.htm')) {
      try {
        return new Response(await prepareDocument(file), { headers: { 'content-type': 'text/html; charset=utf-8', ...NO_STORE } });
      } catch (error) {
        // An unusable child composition must fail the render with its own message, not a blank frame.
        host.reportProblem?.(toSeekframeError(error, { code: 'invalid-composition', stage: 'load' }));
        return plainText(error instanceof Error ? error.message : String(error), 500);
      }
    }
    if (lower.endsWith('.css')) {
      const css = await file.text();
      const rewritten = await rewriteFontCss(css, host.findFont, routes);
      if (rewritten !== css) return new Response(rewritten, { headers: { 'content-type': 'text/css; charset=utf-8', ...NO_STORE } });
    }
    return file.respond(request.headers.get('range') ?? undefined);
  };

  const prepareDocument = async (file: ProjectFile): Promise<string> => {
    const readStylesheet = async (path: string): Promise<string | undefined> => {
      const linked = await host.projectFile(path);
      return linked && !(linked instanceof Response) ? linked.text() : undefined;
    };
    const withFonts = await injectNamedFonts(await file.text(), { file: file.path, findFont: host.findFont, readStylesheet, routes });
    return options.prepareHtml(rewriteRemoteReferences(withFonts, routes), { file: file.path, isEntry: file.path === options.entry });
  };

  return Object.assign(serve, { routes });
}

/**
 * A remote URL a host without a network of its own (a deploy template's preview) has no local copy
 * of: the viewer's browser loads it from where it is, as it would without Seekframe, through a
 * redirect. Only a URL the composition names (`named`: written into a page or stylesheet this rule
 * served, or listed by the build's export) is redirected, never one a request made up, so the
 * route is no open redirect on the deployment's origin; and only for a subresource load (the
 * browser says so in Sec-Fetch-Dest): a link someone follows to this route is not sent on.
 */
export function notLocal(url: string, request: Request, named: boolean): Response {
  if (!named) return plainText('That URL is not one this composition names; the preview redirects only those.', 404);
  const dest = request.headers.get('sec-fetch-dest');
  if (dest && !['document', 'iframe', 'frame', 'embed', 'object'].includes(dest)) {
    return new Response(null, { status: 307, headers: { location: url, ...NO_STORE } });
  }
  return plainText(
    `${url} is not an installed npm package or font here, and this server fetches nothing itself; a page's script, style, image or font request for it is redirected there.`,
    404,
  );
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
