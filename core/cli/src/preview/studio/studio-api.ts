import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import { errorResponse } from '@seekframe/producer/http';
import { isPreviewHost } from '../preview-hosts.js';
import type { EditorInfo } from './editor-link.js';
import { studioEditRoutes } from './studio-edit-routes.js';
import type { StudioEdits } from './studio-edits.js';
import { studioRenderRoutes } from './studio-render-routes.js';
import type { StudioRenders } from './studio-renders.js';
import { STUDIO_ROUTE } from './studio-route.js';
import type { WaveformInfo } from './studio-types.js';

export interface StudioApiOptions {
  root: string;
  entryFile: string;
  renders: StudioRenders;
  edits: StudioEdits;
  waveform: (src: string) => Promise<WaveformInfo>;
  editor: EditorInfo;
  /** Host names this server answers as (loopback names and the one it listens on). */
  hosts: readonly string[];
}

type Env = { Bindings: { outgoing?: ServerResponse } };

/** Largest body the studio API reads. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The studio's API, mounted by `seekframe preview` beside its page routes: the list of what is
 * mounted. `GET studio.json` (project folder, entry, editor link), the timeline's writes
 * (studio-edit-routes.ts: source.json, edits, undo/redo, variables/defaults, waveform) and the
 * render panel (studio-render-routes.ts).
 * It answers only requests made to this machine by its own pages: a web page elsewhere cannot
 * start renders (checked Host, Origin and a JSON content type on every change).
 */
export function createStudioApi(options: StudioApiOptions): Hono<Env> {
  // The one status table and body of every HTTP face (ERROR_HTTP_STATUS); an unexpected error
  // keeps its message here, since the studio only ever talks to the person running it.
  const answer = (error: unknown) => errorResponse(toSeekframeError(error, { code: 'preview-failed', stage: 'serve' }));
  return new Hono<Env>()
    .basePath(STUDIO_ROUTE.slice(0, -1))
    .onError((error) => answer(error))
    .notFound((c) =>
      answer(
        new SeekframeError(
          'not-found',
          `${c.req.method} ${c.req.path} is not a studio route; see ${STUDIO_ROUTE}{studio.json,source.json,renders}`,
        ),
      ),
    )
    .use('*', ownPagesOnly(options.hosts))
    .use(
      '*',
      // Render settings, edits and defaults are small; nothing here needs more.
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: () =>
          answer(
            new SeekframeError(
              'body-too-large',
              `The request body is over ${MAX_BODY_BYTES / 1024} KiB; the studio's requests are small JSON objects.`,
              { stage: 'serve' },
            ),
          ),
      }),
    )
    .get('/studio.json', (c) =>
      c.json({
        root: options.root,
        entryFile: options.entryFile,
        entry: relative(options.root, options.entryFile),
        revision: options.renders.revision,
        ...options.editor,
      }),
    )
    .route('/', studioEditRoutes(options.edits, options.waveform))
    .route('/', studioRenderRoutes(options.renders));
}

/**
 * Answers only this server's own pages: the Host must be one of its names, an Origin (when sent)
 * its own, and a change a JSON body (which a form of another site cannot send without asking).
 */
function ownPagesOnly(hosts: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const sameOrigin = origin === undefined || new URL(c.req.url).origin === origin;
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    const json = (c.req.header('content-type') ?? '').startsWith('application/json');
    if (!isPreviewHost(hosts, c.req.header('host')) || !sameOrigin || (changes && c.req.method !== 'DELETE' && !json)) {
      throw new SeekframeError(
        'origin-refused',
        'The studio API answers only the preview page it serves (same host and origin, JSON bodies); open the preview URL the command printed.',
        { stage: 'serve' },
      );
    }
    await next();
  };
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
