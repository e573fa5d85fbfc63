import { parseRenderSpec } from '../plan/render-spec.js';
import { assembleSegments } from '../render/assemble-segments.js';
import { mixPlanAudio } from '../render/mix-plan-audio.js';
import { planRender } from '../render/plan-render.js';
import { renderFrames } from '../render/render-frames.js';
import type { PlanFacts, RenderCore } from './render-core.js';

/**
 * The real render core (the plan / frame-range / assembly seams of this package). The steps take
 * a RenderCore so tests can wrap it (fault injection); the assignment below is where TypeScript
 * checks the seams' shapes.
 */
const typedCore: RenderCore<ReturnType<typeof parseRenderSpec>, Awaited<ReturnType<typeof planRender>>> = {
  parseRenderSpec,
  planRender,
  renderFrames,
  mixPlanAudio,
  assembleSegments,
};

export const producerCore = typedCore as unknown as RenderCore<unknown, PlanFacts>;
