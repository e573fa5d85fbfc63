import { Hono } from 'hono';
import { relativePathProblem } from '@seekframe/composition';
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
    headers: {
      'content-type': file.contentType ?? 'text/javascript; charset=utf-8',
      'content-security-policy': PREVIEW_CSP,
      'cache-control': 'no-cache',
    },
  });
}

/**
 * `GET /` (the page), `/preview/app.js` and `/preview/seekframe-player.js` (its built assets), and
 * `/preview/composition/*`: the composition's files by the one rule the render and `seekframe
 * preview` use too (`compositionFiles`, @seekframe/producer/composition-files, mounted at
 * PREVIEW_COMPOSITION_BASE): the runtime in every HTML file, fonts and npm packages from local
 * copies. A sub-app to mount at `/`. No token needed: the page asks for one when the API answers 401.
 */
export function previewRoutes(options: Pick<RenderApiOptions, 'previewAssets' | 'compositionFiles'>): Hono {
  const files = options.compositionFiles;
  if (files && files.routes.base !== PREVIEW_COMPOSITION_BASE) {
    throw apiError(
      'invalid-server-options',
      `compositionFiles must be mounted at ${PREVIEW_COMPOSITION_BASE} (it was made for ${files.routes.base}): the URLs it writes into the pages carry its base.`,
    );
  }
  return new Hono()
    .get('/', (c) => {
      if (!options.previewAssets)
        throw apiError('not-found', 'This deployment has no preview page (no previewAssets given to createRenderApi).');
      return c.html(previewPageHtml(), 200, { 'content-security-policy': PREVIEW_CSP, 'cache-control': 'no-cache' });
    })
    .get('/preview/:asset{(app|seekframe-player)\\.js}', async (c) => {
      if (!options.previewAssets) throw apiError('not-found', 'This deployment has no preview assets.');
      return serveAsset(options.previewAssets, c.req.param('asset'));
    })
    .get(`${PREVIEW_COMPOSITION_BASE}*`, async (c) => {
      if (!files)
        throw apiError('not-found', 'This deployment serves no composition files (no compositionFiles given to createRenderApi).');
      const raw = rawPathOf(c.req.raw, c.env);
      const rest = raw.split(/[?#]/)[0]!.slice(PREVIEW_COMPOSITION_BASE.length);
      const notFound = () =>
        apiError('not-found', `No composition file ${rest}; paths are relative to the composition folder, without "..".`);
      if (safeRelativePath(rest) === null) throw notFound();
      const answer = await files(c.req.raw, raw);
      if (answer.status === 403 || answer.status === 404) throw notFound();
      const headers = new Headers(answer.headers);
      headers.set('content-security-policy', PREVIEW_CSP);
      return new Response(answer.body, { status: answer.status, headers });
    });
}

/** The raw path on Node (URL parsing would fold `/../` away); elsewhere the parsed one. */
function rawPathOf(request: Request, env: unknown): string {
  const raw = (env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
  return raw ?? new URL(request.url).pathname;
}

/**
 * The raw (still percent-encoded) path decoded once, when it is a relative POSIX path of plain
 * names (`relativePathProblem`: no `..`, `.`, empty segment, backslash or control character);
 * else null. Checked before the composition files rule sees the path, whatever its host: a
 * template's preview answers only plain paths (the Node host then resolves them with `inside`).
 */
export function safeRelativePath(raw: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return relativePathProblem(path) === null ? path : null;
}
