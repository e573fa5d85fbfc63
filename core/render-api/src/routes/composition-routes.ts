import type { CompositionMetadata } from '@seekframe/composition';
import { Hono } from 'hono';
import { compositionInfo } from '../load-composition.js';

/** `GET /composition`: what a frontend needs to size the player and build the variables form. */
export function compositionRoutes(loadComposition: () => Promise<CompositionMetadata>): Hono {
  return new Hono().get('/composition', async (c) => c.json(compositionInfo(await loadComposition())));
}
