import { compositionRoutes } from './composition-routes.js';
import { plainText, routeRequest } from './route-request.js';
import { notLocal, type CompositionFiles } from './serve-composition-file.js';

/** One prepared file: where it is stored (relative to the export's folder) and its Content-Type. */
export interface ExportedFile {
  file: string;
  type: string;
}

/**
 * What a template's build prepared with the composition files rule, for a host with no
 * `node_modules` at run time (a Worker, the Modal app): every response the rule gave, stored.
 */
export interface ExportedFilesManifest {
  version: 1;
  /** The base the pages were prepared for: the URLs written into them carry it. */
  base: string;
  /** Request path (relative to the base, decoded; `index.html`, `node_modules/gsap/dist/gsap.min.js`, `__seekframe/fonts/<id>/<file>`) → file. */
  files: Record<string, ExportedFile>;
  /** Remote URL (the remote route's `url`) that had a local copy at build time → file. */
  remote: Record<string, ExportedFile>;
  /**
   * Remote URLs the pages name that had no local copy at build time: the only ones the remote
   * route redirects to (`notLocal`). Absent in an export made before it existed: nothing is.
   */
  redirect?: string[];
}

/**
 * Serves an export (export-composition-files.ts) with the rule's routes: the same responses the
 * rule gave at build time. `read` returns a stored file's response (honouring the request's
 * Range where the store can), or null when it is gone. A remote URL the pages name that the build
 * had no local copy of (`manifest.redirect`) is loaded by the viewer's browser from where it is,
 * as the rule does for a host without a network (`notLocal`); any other URL answers 404.
 */
export function createExportedFiles(
  manifest: ExportedFilesManifest,
  read: (file: ExportedFile, request: Request) => Promise<Response | null>,
): CompositionFiles {
  const routes = compositionRoutes(manifest.base);
  const redirect = new Set(manifest.redirect ?? []);
  const serve = async (request: Request, rawPath = new URL(request.url).pathname): Promise<Response> => {
    const asked = routeRequest(request, rawPath, routes);
    if (asked instanceof Response) return asked;
    const { rest, remoteUrl } = asked;
    if (remoteUrl) {
      const stored = Object.hasOwn(manifest.remote, remoteUrl) ? manifest.remote[remoteUrl] : undefined;
      return (stored && (await answer(stored, request))) ?? notLocal(remoteUrl, request, redirect.has(remoteUrl));
    }
    let path: string;
    try {
      path = decodeURIComponent(rest);
    } catch {
      return plainText('bad path', 400);
    }
    const key = path === '' || path.endsWith('/') ? `${path}index.html` : path;
    const stored = Object.hasOwn(manifest.files, key) ? manifest.files[key] : undefined;
    return (stored && (await answer(stored, request))) ?? plainText('not found', 404);
  };
  const answer = async (stored: ExportedFile, request: Request): Promise<Response | null> => {
    const response = await read(stored, request);
    if (!response || (response.status !== 200 && response.status !== 206)) return null;
    const headers = new Headers(response.headers);
    headers.set('content-type', stored.type);
    headers.set('cache-control', 'no-cache');
    return new Response(response.body, { status: response.status, headers });
  };
  return Object.assign(serve, { routes });
}
