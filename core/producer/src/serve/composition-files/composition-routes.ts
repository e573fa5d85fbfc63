/**
 * Where a composition's server answers what is not a file of the composition: remote URLs
 * (`<base>__seekframe/remote?url=…`) and @fontsource font files (`<base>__seekframe/fonts/<id>/<file>`).
 * The render's project server mounts the files at `/`; the deploy templates at
 * `/preview/composition/`; every URL the rule writes into a page carries that base.
 */
export interface CompositionRoutes {
  /** Path prefix the files are served under, ending with `/`. */
  base: string;
  /** `<base>__seekframe/remote`; the URL goes in the `url` query parameter. */
  remote: string;
  /** `<base>__seekframe/fonts/`; followed by `<package id>/<file name>`. */
  fonts: string;
  /**
   * The remote URLs written into pages and stylesheets with these routes (`remoteUrl` adds each):
   * what the composition names. A host without a network redirects the remote route only to
   * these, never to a URL a request made up (`notLocal`). Absent on shared routes (ROOT_ROUTES).
   */
  named?: Set<string>;
}

export function compositionRoutes(base = '/'): CompositionRoutes {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return { base: prefix, remote: `${prefix}__seekframe/remote`, fonts: `${prefix}__seekframe/fonts/` };
}

/** The routes of a server that mounts the files at its root (the render, `seekframe preview`). */
export const ROOT_ROUTES: CompositionRoutes = compositionRoutes('/');

/** The remote route's URL for `url` (noted in `routes.named`: the composition names it). */
export function remoteUrl(routes: CompositionRoutes, url: string): string {
  routes.named?.add(url);
  return `${routes.remote}?url=${encodeURIComponent(url)}`;
}
