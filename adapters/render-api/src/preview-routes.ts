import type { Hono } from 'hono';
import type { CompositionFiles } from '@seekframe/producer/composition-files';
import { apiError } from './api-error.js';
import type { FileSource } from './ports.js';
import { previewPageHtml } from './preview-page.js';
import type { RenderApiOptions } from './render-api-options.js';

/** The preview page may be framed only by this origin and embeds no plugins. */
export const PREVIEW_CSP = "frame-ancestors 'self'; object-src 'none'";

/** Where every template serves its composition's files (the player loads `<base>index.html`). */
export const PREVIEW_COMPOSITION_BASE = '/preview/composition/';

async function serveAsset(source: FileSource, name: string): Promise<Response> {
  const file = await source.read(name);
  if (!file) throw apiError('not-found', `No preview file ${name}.`);
  return new Response(file.body as BodyInit, {
    headers: { 'content-type': file.contentType ?? 'text/javascript; charset=utf-8', 'content-security-policy': PREVIEW_CSP, 'cache-control': 'no-cache' },
  });
}

/**
 * `GET /` (the page), `/preview/app.js` and `/preview/seekframe-player.js` (its built assets), and
 * `/preview/composition/*`: the composition's files by the one rule the render and `seekframe
 * preview` use too (`compositionFiles`, @seekframe/producer/composition-files, mounted at
 * PREVIEW_COMPOSITION_BASE): the runtime in every HTML file, fonts and npm packages from local
 * copies. No token needed: the page asks for one when the API answers 401.
 */
export function mountPreview(app: Hono<any>, options: RenderApiOptions): void {
  const files = options.compositionFiles;
  if (files && files.routes.base !== PREVIEW_COMPOSITION_BASE) {
    throw apiError('invalid-server-options', `compositionFiles must be mounted at ${PREVIEW_COMPOSITION_BASE} (it was made for ${files.routes.base}): the URLs it writes into the pages carry its base.`);
  }
  app.get('/', (c) => {
    if (!options.previewAssets) throw apiError('not-found', 'This deployment has no preview page (no previewAssets given to createRenderApi).');
    return c.html(previewPageHtml(), 200, { 'content-security-policy': PREVIEW_CSP, 'cache-control': 'no-cache' });
  });
  app.get('/preview/:asset{(app|seekframe-player)\\.js}', async (c) => {
    if (!options.previewAssets) throw apiError('not-found', 'This deployment has no preview assets.');
    return serveAsset(options.previewAssets, c.req.param('asset'));
  });
  app.get(`${PREVIEW_COMPOSITION_BASE}*`, async (c) => {
    if (!files) throw apiError('not-found', 'This deployment serves no composition files (no compositionFiles given to createRenderApi).');
    const answer = await serveComposition(files, c.req.raw, c.env);
    if (answer.status === 403 || answer.status === 404) {
      const path = c.req.path.slice(PREVIEW_COMPOSITION_BASE.length);
      throw apiError('not-found', `No composition file ${path}; paths are relative to the composition folder, without "..".`);
    }
    const headers = new Headers(answer.headers);
    headers.set('content-security-policy', PREVIEW_CSP);
    return new Response(answer.body, { status: answer.status, headers });
  });
}

/** The raw path on Node (URL parsing would fold `/../` away); elsewhere the parsed one. */
function serveComposition(files: CompositionFiles, request: Request, env: unknown): Promise<Response> {
  const raw = (env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
  return files(request, raw ?? new URL(request.url).pathname);
}
