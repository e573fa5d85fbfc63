import { Hono } from 'hono';
import { storedRenderName } from '@seekframe/composition';
import { apiError } from '../api-error.js';
import type { ObjectStore } from '../ports.js';
import { serveObject } from '../serve-object.js';

/** `GET|HEAD /renders/:name`: `renders/<name>` from the object store (the function template's volume route). */
export function storedRenderRoutes(objects: ObjectStore): Hono {
  return new Hono().on(['GET', 'HEAD'], '/renders/:name', async (c) => {
    const name = c.req.param('name');
    if (storedRenderName(`renders/${name}`) !== name) throw apiError('not-found', `No stored render named ${name}.`);
    if (!(await objects.head(`renders/${name}`))) throw apiError('not-found', `No stored render named ${name}; it may have expired.`);
    return serveObject(objects, `renders/${name}`, c.req.raw, { downloadName: name });
  });
}
