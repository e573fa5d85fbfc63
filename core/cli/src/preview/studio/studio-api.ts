import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_HTTP_STATUS, SeekframeError, toSeekframeError } from '@seekframe/composition';
import { openSseStream, serveFile } from '@seekframe/producer';
import { isPreviewHost } from '../preview-hosts.js';
import type { EditorInfo } from './editor-link.js';
import { studioEditRoutes } from './studio-edit-routes.js';
import type { StudioEdits } from './studio-edits.js';
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
 * The studio's API, mounted by `seekframe preview` beside its page routes:
 * `GET studio.json` (project folder, entry, editor link), the timeline's writes
 * (studio-edit-routes.ts: source.json, edits, undo/redo, variables/defaults, waveform), and the render panel's `GET|POST renders`,
 * `GET renders/:id/events` (SSE), `DELETE renders/:id`, `GET renders/:id/file` (Range).
 * It answers only requests made to this machine by its own pages: a web page elsewhere cannot
 * start renders (checked Host, Origin and a JSON content type on every change).
 */
export function createStudioApi(options: StudioApiOptions): Hono<Env> {
  const app = new Hono<Env>().basePath(STUDIO_ROUTE.slice(0, -1));
  const fail = (c: Context, error: SeekframeError) => {
    const data = error.toJSON();
    return c.json(
      { error: { code: data.code, message: data.message, ...(data.details ? { details: data.details } : {}) } },
      // A page of another origin is refused, not asked to log in: 403 where the table says 401.
      data.code === 'unauthorized' ? 403 : (ERROR_HTTP_STATUS[data.code] ?? 400),
    );
  };
  app.onError((error, c) => fail(c, toSeekframeError(error, { code: 'preview-failed', stage: 'serve' })));
  app.notFound((c) =>
    fail(
      c,
      new SeekframeError(
        'not-found',
        `${c.req.method} ${c.req.path} is not a studio route; see ${STUDIO_ROUTE}{studio.json,source.json,renders}`,
      ),
    ),
  );

  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    const sameOrigin = origin === undefined || new URL(c.req.url).origin === origin;
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    const json = (c.req.header('content-type') ?? '').startsWith('application/json');
    if (!isPreviewHost(options.hosts, c.req.header('host')) || !sameOrigin || (changes && c.req.method !== 'DELETE' && !json)) {
      return fail(
        c,
        new SeekframeError(
          'unauthorized',
          'The studio API answers only the preview page it serves (same host and origin, JSON bodies); open the preview URL the command printed.',
          { stage: 'serve' },
        ),
      );
    }
    await next();
  });

  // Render settings, edits and defaults are small; nothing here needs more.
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        fail(
          c,
          new SeekframeError(
            'body-too-large',
            `The request body is over ${MAX_BODY_BYTES / 1024} KiB; the studio's requests are small JSON objects.`,
            { stage: 'serve' },
          ),
        ),
    }),
  );

  app.get('/studio.json', (c) =>
    c.json({
      root: options.root,
      entryFile: options.entryFile,
      entry: relative(options.root, options.entryFile),
      revision: options.renders.revision,
      ...options.editor,
    }),
  );

  app.route('/', studioEditRoutes(options.edits, options.waveform));

  app.get('/renders', (c) => c.json({ revision: options.renders.revision, renders: options.renders.list() }));

  app.post('/renders', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new SeekframeError('invalid-json', 'The render settings are not valid JSON; send a JSON object like {"format":"mp4"}.', {
        stage: 'config',
      });
    }
    return c.json(await options.renders.start(body), 201);
  });

  const known = (id: string) => {
    const render = options.renders.get(id);
    if (!render)
      throw new SeekframeError('render-not-found', `No render "${id}" in this preview session; GET ${STUDIO_ROUTE}renders lists them.`, {
        stage: 'config',
      });
    return render;
  };

  app.get('/renders/:id', (c) => c.json(known(c.req.param('id'))));

  app.delete('/renders/:id', (c) => {
    const render = known(c.req.param('id'));
    if (!options.renders.cancel(render.id))
      throw new SeekframeError('render-not-running', `Render "${render.id}" already ended (${render.status}).`, { stage: 'config' });
    return c.json(options.renders.get(render.id), 202);
  });

  app.get('/renders/:id/events', (c) => {
    const id = known(c.req.param('id')).id;
    let stop: (() => void) | null = null;
    const stream = openSseStream({ outgoing: c.env?.outgoing, greeting: 'render', onDisconnect: () => stop?.() });
    stop = options.renders.watch(id, (render) => {
      stream.send('render', render);
      if (render.status !== 'queued' && render.status !== 'running') stream.end();
    });
    return stream.response;
  });

  app.get('/renders/:id/file', async (c) => {
    const render = known(c.req.param('id'));
    const folder =
      render.format === 'png-sequence'
        ? 'a folder of PNG files'
        : render.format === 'hls'
          ? 'an HLS folder (index.m3u8 and its segments)'
          : undefined;
    if (render.status !== 'completed' || folder) {
      throw new SeekframeError(
        'output-not-found',
        folder
          ? `Render "${render.id}" is ${folder} (${render.file}); open it from disk.`
          : `Render "${render.id}" has no file yet (${render.status}).`,
        { stage: 'output' },
      );
    }
    const info = await stat(render.output).catch(() => null);
    if (!info?.isFile())
      throw new SeekframeError('output-not-found', `${render.file} was moved or deleted after the render.`, { stage: 'output' });
    return serveFile(render.output, info.size, c.req.header('range'));
  });

  return app;
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
