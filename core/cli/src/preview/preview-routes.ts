import type { IncomingMessage, ServerResponse } from 'node:http';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import { previewPageHtml } from './preview-page.js';
import { PREVIEW_ROUTE } from './preview-route.js';
import { readLintInfo, readProjectInfo } from './project-info.js';
import { projectHtmlFile } from './studio/project-html-file.js';
import type { SseHub } from './sse-hub.js';

export interface PreviewRouteContext {
  root: string;
  entryFile: string;
  title: string;
  playerSource: string;
  /** The bundled preview page script (dist/preview/preview-app.js). */
  appSource: string;
  hub: SseHub;
}

/**
 * Answers `/` (the preview page) and everything under `/__seekframe/preview/`; returns false for
 * any other path, which then goes to the project server. Bad requests get 4xx JSON
 * `{ error: { code, message } }`; nothing here can stop the process.
 */
export async function handlePreviewRoute(req: IncomingMessage, res: ServerResponse, ctx: PreviewRouteContext): Promise<boolean> {
  const pathname = new URL(req.url ?? '/', 'http://preview').pathname;
  if (pathname !== '/' && !pathname.startsWith(PREVIEW_ROUTE)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: { code: 'method-not-allowed', message: `${req.method ?? ''} ${pathname}: the preview only answers GET` } });
    return true;
  }
  const name = pathname === '/' ? '' : pathname.slice(PREVIEW_ROUTE.length);
  try {
    switch (name) {
      case '':
        send(res, 200, 'text/html; charset=utf-8', previewPageHtml(ctx.title));
        break;
      case 'seekframe-player.js':
        send(res, 200, 'text/javascript; charset=utf-8', ctx.playerSource);
        break;
      case 'app.js':
        send(res, 200, 'text/javascript; charset=utf-8', ctx.appSource);
        break;
      case 'project.json':
        sendJson(
          res,
          200,
          await readProjectInfo(ctx.root, await compositionFile(ctx, new URL(req.url ?? '/', 'http://preview').searchParams.get('file'))),
        );
        break;
      case 'lint.json':
        sendJson(res, 200, await readLintInfo(ctx.root, ctx.entryFile));
        break;
      case 'events':
        ctx.hub.add(res);
        break;
      default:
        sendJson(res, 404, {
          error: {
            code: 'not-found',
            message: `${pathname} is not a preview route; the preview serves ${PREVIEW_ROUTE}{project.json,lint.json,events,app.js,seekframe-player.js}`,
          },
        });
    }
  } catch (error) {
    // e.g. the entry file was deleted while the preview runs: say so, keep serving.
    const data = toSeekframeError(error, { code: 'preview-failed', stage: 'serve' }).toJSON();
    if (!res.headersSent) sendJson(res, data.code === 'not-found' ? 404 : 500, { error: { code: data.code, message: data.message } });
    else res.end();
  }
  return true;
}

/** The entry, or a sub-composition file opened on its own (`?file=card.html`), confined to the project. */
async function compositionFile(ctx: PreviewRouteContext, file: string | null): Promise<string> {
  if (file === null) return ctx.entryFile;
  const found = await projectHtmlFile(ctx.root, file);
  if ('path' in found) return found.path;
  throw new SeekframeError('not-found', `${JSON.stringify(file.slice(0, 200))} ${found.problem}.`, { stage: 'serve' });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}
