import { parseGoogleFontsUrl } from '@seekframe/composition';
import { googleFontsCss } from '../fonts/google-fonts-css.js';
import { rewriteCssUrls } from '../rewrite-css-urls.js';
import type { CompositionHost, FetchedFile } from './composition-host.js';
import { ROOT_ROUTES, type CompositionRoutes } from './composition-routes.js';

export interface RemoteAnswer extends FetchedFile {
  /** `local`: written from installed packages (npm CDN URLs, Google Fonts); `network`: fetched. */
  source: 'local' | 'network';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * What a remote URL the page asked for is answered with, in this order: a Google Fonts
 * stylesheet is written from the installed `@fontsource` packages (never fetched, so glyphs are the
 * same everywhere); an npm CDN URL (jsdelivr, unpkg) is the installed package's file; anything
 * else comes from the host's network; null when the host has none. A stylesheet's own `url()`s are
 * pointed at the remote route too, so an `@fontsource` CSS file from a CDN loads its fonts from
 * the package.
 */
export async function resolveRemote(
  url: string,
  host: Pick<CompositionHost, 'findFont' | 'packageFile' | 'networkFile'>,
  options: { routes?: CompositionRoutes; referrer?: string | undefined } = {},
): Promise<RemoteAnswer | null> {
  const routes = options.routes ?? ROOT_ROUTES;
  const googleFonts = parseGoogleFontsUrl(url);
  if (googleFonts) {
    return {
      contentType: 'text/css; charset=utf-8',
      body: encoder.encode(await googleFontsCss(googleFonts, host.findFont, routes)),
      source: 'local',
    };
  }
  const local = await host.packageFile(url);
  if (local) return { ...local, body: cssAware(local.body, local.contentType, url, routes), source: 'local' };
  if (!host.networkFile) return null;
  const fetched = await host.networkFile(url, options.referrer);
  return { ...fetched, body: cssAware(fetched.body, fetched.contentType, fetched.finalUrl ?? url, routes), source: 'network' };
}

/** Stylesheets keep working from the remote route: their relative url()s go through it too. */
function cssAware(body: Uint8Array, contentType: string, url: string, routes: CompositionRoutes): Uint8Array {
  if (!/^text\/css\b/i.test(contentType)) return body;
  return encoder.encode(rewriteCssUrls(decoder.decode(body), url, routes));
}
