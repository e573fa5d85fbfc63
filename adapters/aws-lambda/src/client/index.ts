export { renderOnLambda, getRenderProgress, waitForRender, type LambdaTarget } from './render-on-lambda.js';
export { invokeApi } from './invoke-api.js';
export { createProgressTranslator, type LambdaRenderEvent } from './progress-events.js';
export type { DistributedProgress, DistributedStage } from '../progress/aggregate-progress.js';
export type { CostEstimate, Pricing } from '../progress/cost.js';
export type { RenderRequestBody } from '../progress/progress-records.js';
export type { StartedRender } from '../api/lambda-render-api.js';
