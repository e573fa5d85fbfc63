import type { CompositionRoutes } from './composition-routes.js';

/** A plain-text answer that no cache keeps. */
export function plainText(body: string, status: number): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * What a request asks of a composition's files: its path below the routes' base (still
 * percent-encoded, from the raw path), or the answer when it asks for nothing here (a method
 * other than GET/HEAD, a path outside the base).
 */
export function routeRequest(
  request: Request,
  rawPath: string,
  routes: CompositionRoutes,
): { rest: string; remoteUrl: string | null } | Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plainText('method not allowed', 405);
  const pathname = rawPath.split(/[?#]/)[0] ?? '/';
  if (!pathname.startsWith(routes.base)) return plainText('not found', 404);
  const rest = pathname.slice(routes.base.length);
  if (rest !== routes.remote.slice(routes.base.length)) return { rest, remoteUrl: null };
  const url = new URL(request.url).searchParams.get('url');
  return url && /^https?:\/\//.test(url) ? { rest, remoteUrl: url } : plainText('url must be an http(s) URL', 400);
}
