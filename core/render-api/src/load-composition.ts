import { z } from 'zod';
import { extractCompositionMetadata, VariableDeclarationSchema, type CompositionMetadata } from '@seekframe/composition';
import { apiError } from './api-error.js';
import type { CompositionSource } from './ports.js';
import { readText } from './read-body.js';

/** What `GET /api/composition` answers: enough to size the player and build the form. */
export const CompositionInfoSchema = z.object({
  id: z.string().describe('data-composition-id of the composition this deployment renders.'),
  width: z.number().int().describe('Pixels.'),
  height: z.number().int().describe('Pixels.'),
  fps: z.number().describe('Frames per second a render uses when the request names none.'),
  duration: z.number().describe('Seconds.'),
  variables: z.array(VariableDeclarationSchema).describe('The declared variables: what `variables` in POST /api/render may set.'),
});
export type CompositionInfo = z.output<typeof CompositionInfoSchema>;

/** Compositions without data-fps render at 30, like `seekframe render`. */
export const DEFAULT_FPS = 30;

export function compositionInfo(metadata: CompositionMetadata): CompositionInfo {
  return {
    id: metadata.id,
    width: metadata.width,
    height: metadata.height,
    fps: metadata.fps ?? DEFAULT_FPS,
    duration: metadata.duration,
    variables: metadata.variables,
  };
}

/** Reads and parses the template's `index.html` once; a broken one fails every request that needs it, with the reason. */
export function compositionLoader(source: CompositionSource): () => Promise<CompositionMetadata> {
  let pending: Promise<CompositionMetadata> | undefined;
  return () => {
    pending ??= (async () => {
      const file = await source.read('index.html');
      if (!file) {
        throw apiError(
          'invalid-composition',
          "The template's composition has no index.html; put the composition's entry file at index.html in its folder.",
          { stage: 'load' },
        );
      }
      return extractCompositionMetadata(await readText(file.body), { file: 'index.html' });
    })();
    pending.catch(() => {
      pending = undefined; // a later request tries again (the file may be fixed)
    });
    return pending;
  };
}
