import type { Hono } from 'hono';
import { relativePathProblem } from '@seekframe/composition';
import { apiError } from './api-error.js';
import { injectPreviewRuntime, RUNTIME_ASSET } from './inject-preview-runtime.js';
import { readText } from './read-body.js';
import type { FileSource, PreviewAssets } from './ports.js';
import { previewPageHtml } from './preview-page.js';
import type { RenderApiOptions } from './render-api-options.js';

/** The preview page may be framed only by this origin and embeds no plugins. */
export const PREVIEW_CSP = "frame-ancestors 'self'; object-src 'none'";

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
};

export function contentTypeOf(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/**
 * The raw (still percent-encoded) path decoded once, when it is a relative POSIX path of plain
 * names (`relativePathProblem`: no `..`, `.`, empty segment, backslash or control character);
 * else null. The FileSource then resolves it under its root (`inside` on disk).
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

type PreparePreviewHtml = (html: string, path: string) => Promise<string>;

async function serveFile(source: FileSource, path: string, prepareHtml?: PreparePreviewHtml): Promise<Response> {
  const file = await source.read(path);
  if (!file) throw apiError('not-found', `No preview file ${path}.`);
  const contentType = file.contentType ?? contentTypeOf(path);
  const body = prepareHtml && /^text\/html\b/i.test(contentType) ? await prepareHtml(await readText(file.body), path) : (file.body as BodyInit);
  return new Response(body, {
    headers: { 'content-type': contentType, 'content-security-policy': PREVIEW_CSP, 'cache-control': 'no-cache' },
  });
}

/**
 * Every HTML file of the composition gets the runtime, read once from the preview assets
 * (`seekframe-runtime.js`): the player then loads the entry by URL and child documents get the
 * runtime from this route, as in the render. Without preview assets there is no preview page,
 * and the files are served as they are.
 */
function previewHtmlPreparer(assets: PreviewAssets | undefined): PreparePreviewHtml | undefined {
  if (!assets) return undefined;
  let runtime: Promise<string> | undefined;
  const loadRuntime = (): Promise<string> => {
    runtime ??= (async () => {
      const file = await assets.read(RUNTIME_ASSET);
      if (!file) {
        throw apiError(
          'bundle-missing',
          `The preview assets have no ${RUNTIME_ASSET} (the runtime bundle, @seekframe/runtime/bundle), so the preview cannot load sub-compositions; serve it from the template's previewAssets (run \`npm run build -w @seekframe/runtime\`).`,
          { stage: 'serve', details: { package: '@seekframe/runtime', specifier: '@seekframe/runtime/bundle', build: 'npm run build -w @seekframe/runtime' } },
        );
      }
      return readText(file.body);
    })();
    runtime.catch(() => {
      runtime = undefined; // a later request tries again (the bundle may be built by then)
    });
    return runtime;
  };
  return async (html, path) => injectPreviewRuntime(html, path, await loadRuntime());
}

/**
 * `GET /` (the page), `/preview/app.js` and `/preview/seekframe-player.js` (its built assets),
 * `/preview/composition/*` (the composition's files for the player, every HTML file with the
 * runtime injected in preview mode). No token needed: the page
 * asks for one when the API answers 401.
 */
export function mountPreview(app: Hono<any>, options: RenderApiOptions): void {
  const prepareHtml = previewHtmlPreparer(options.previewAssets);
  app.get('/', (c) => {
    if (!options.previewAssets) throw apiError('not-found', 'This deployment has no preview page (no previewAssets given to createRenderApi).');
    return c.html(previewPageHtml(), 200, { 'content-security-policy': PREVIEW_CSP, 'cache-control': 'no-cache' });
  });
  app.get('/preview/:asset{(app|seekframe-player)\\.js}', async (c) => {
    if (!options.previewAssets) throw apiError('not-found', 'This deployment has no preview assets.');
    return serveFile(options.previewAssets, c.req.param('asset'));
  });
  app.get('/preview/composition/*', async (c) => {
    const raw = c.req.path.slice('/preview/composition/'.length);
    const path = safeRelativePath(raw);
    if (!path) throw apiError('not-found', `No composition file ${raw}; paths are relative to the composition folder, without "..".`);
    return serveFile(options.composition, path, prepareHtml);
  });
}
