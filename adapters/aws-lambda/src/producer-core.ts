import { assembleSegments, mixPlanAudio, parseRenderSpec, planRender, renderFrames } from '@seekframe/producer';
import type { PlanFacts, RenderCore } from './render-core.js';

/**
 * The real render core (the plan / frame-range / assembly seams of @seekframe/producer). The handlers take a
 * RenderCore so tests can wrap it (fault injection); this is the one place that names the
 * producer, and the assignment below is where TypeScript checks the seams' shapes.
 */
const producerCore: RenderCore<ReturnType<typeof parseRenderSpec>, Awaited<ReturnType<typeof planRender>>> = {
  parseRenderSpec,
  planRender,
  renderFrames,
  mixPlanAudio,
  assembleSegments,
};

export async function loadProducerCore(): Promise<RenderCore<unknown, PlanFacts>> {
  return producerCore as unknown as RenderCore<unknown, PlanFacts>;
}
