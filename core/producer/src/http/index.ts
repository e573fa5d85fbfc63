// The pieces every HTTP face shares (the producer server, the render API of each template, the
// Lambda API, the render container): Worker-safe, no `node:` import in this folder.
export { asSeekframeError, errorBody, errorHandler, errorResponse, type ErrorBody, type ErrorResponseOptions } from './error-response.js';
export { requestId, type RequestIdEnv } from './request-id.js';
export { bearerToken, type BearerTokenOptions } from './bearer-token.js';
export { requestLimits, MAX_HEADER_BYTES, MAX_URL_BYTES } from './request-limits.js';
export { constantTimeEqual, sha256Hex } from './constant-time-equal.js';
export {
  RENDER_BODY_FIELDS,
  RENDER_FORMATS,
  RENDER_QUALITIES,
  RenderBodySchema,
  bodyProblems,
  type RenderBody,
  type RenderFormat,
  type RenderQuality,
} from './render-body-schema.js';
export { JOB_STATUSES, isFinishedStatus, type JobStatus } from './job-status.js';
