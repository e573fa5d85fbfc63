import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { openSseStream, serveFile } from '@seekframe/producer';
import type { StudioRenders } from './studio-renders.js';
import { STUDIO_ROUTE } from './studio-route.js';

type Env = { Bindings: { outgoing?: ServerResponse } };

/**
 * The render panel's routes (mounted under the studio API, behind its host, origin and JSON
 * checks): `GET|POST renders`, `GET renders/:id`, `DELETE renders/:id`, `GET renders/:id/events`
 * (server-sent render states) and `GET renders/:id/file` (Range).
 */
export function studioRenderRoutes(renders: StudioRenders): Hono<Env> {
  const known = (id: string) => {
    const render = renders.get(id);
    if (!render)
      throw new SeekframeError('render-not-found', `No render "${id}" in this preview session; GET ${STUDIO_ROUTE}renders lists them.`, {
        stage: 'config',
      });
    return render;
  };

  return new Hono<Env>()
    .get('/renders', (c) => c.json({ revision: renders.revision, renders: renders.list() }))
    .post('/renders', async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new SeekframeError('invalid-json', 'The render settings are not valid JSON; send a JSON object like {"format":"mp4"}.', {
          stage: 'config',
        });
      }
      return c.json(await renders.start(body), 201);
    })
    .get('/renders/:id', (c) => c.json(known(c.req.param('id'))))
    .delete('/renders/:id', (c) => {
      const render = known(c.req.param('id'));
      if (!renders.cancel(render.id))
        throw new SeekframeError('render-not-running', `Render "${render.id}" already ended (${render.status}).`, { stage: 'config' });
      return c.json(renders.get(render.id), 202);
    })
    .get('/renders/:id/events', (c) => {
      const id = known(c.req.param('id')).id;
      let stop: (() => void) | null = null;
      const stream = openSseStream({ outgoing: c.env?.outgoing, greeting: 'render', onDisconnect: () => stop?.() });
      stop = renders.watch(id, (render) => {
        stream.send('render', render);
        if (render.status !== 'queued' && render.status !== 'running') stream.end();
      });
      return stream.response;
    })
    .get('/renders/:id/file', async (c) => {
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
}
