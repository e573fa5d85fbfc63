import { remoteUrl, ROOT_ROUTES, type CompositionRoutes } from './composition-files/composition-routes.js';

const CSS_REFERENCE = /(url\(\s*)(["']?)([^"')]+?)\2(\s*\))|(@import\s+)(["'])([^"']+)\6/gi;

/**
 * A stylesheet the remote route answers is served from `/__seekframe/remote?url=…`, so its
 * relative references (`url(./files/inter-latin-400-normal.woff2)` in an `@fontsource` CSS file
 * on jsdelivr) would resolve against that route and miss. Every relative or http(s) reference is
 * made absolute against the stylesheet's own URL and pointed at the remote route too, which
 * answers npm CDN files from the installed package. `data:` URLs and fragments are left alone.
 */
export function rewriteCssUrls(css: string, stylesheetUrl: string, routes: CompositionRoutes = ROOT_ROUTES): string {
  return css.replace(
    CSS_REFERENCE,
    (
      all,
      urlOpen?: string,
      quote?: string,
      urlRef?: string,
      urlClose?: string,
      importOpen?: string,
      importQuote?: string,
      importRef?: string,
    ) => {
      const ref = (urlRef ?? importRef ?? '').trim();
      const proxied = proxy(ref, stylesheetUrl, routes);
      if (proxied === null) return all;
      return urlOpen !== undefined ? `${urlOpen}"${proxied}"${urlClose}` : `${importOpen}${importQuote}${proxied}${importQuote}`;
    },
  );
}

function proxy(ref: string, base: string, routes: CompositionRoutes): string | null {
  if (!ref || /^(?:data|blob|about):/i.test(ref) || ref.startsWith('#') || ref.startsWith(routes.remote)) return null;
  let absolute: URL;
  try {
    absolute = new URL(ref, base);
  } catch {
    return null;
  }
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return null;
  return remoteUrl(routes, absolute.href);
}
