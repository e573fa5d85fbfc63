import { SeekframeError } from '@seekframe/composition';
import type { PlanFacts, RenderCore } from './render-core.js';

const NEEDED = ['parseRenderSpec', 'planRender', 'renderFrames', 'mixPlanAudio', 'assembleSegments'] as const;

/**
 * The real render core from @seekframe/producer (issue 12's seams), loaded once. A producer
 * without the seams fails with a message naming what is missing instead of a TypeError later.
 */
export async function loadProducerCore(): Promise<RenderCore<unknown, PlanFacts>> {
  const producer = (await import('@seekframe/producer')) as unknown as Record<string, unknown>;
  const missing = NEEDED.filter((name) => typeof producer[name] !== 'function');
  if (missing.length) {
    throw new SeekframeError('internal-error', `@seekframe/producer lacks ${missing.join(', ')}; the Lambda handlers need the render-core seams (planRender, renderFrames, mixPlanAudio, assembleSegments).`, { stage: 'config' });
  }
  return producer as unknown as RenderCore<unknown, PlanFacts>;
}
