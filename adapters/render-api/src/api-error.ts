import { SeekframeError, type ErrorCode, type ErrorStage, type SeekframeErrorData } from '@seekframe/composition';

/**
 * The HTTP status of each error code this API answers. A render's own failure (a code the
 * producer or engine raised inside the runner) is 500 unless listed here; a refusal of the
 * request is 4xx. One table, so a code never gets two statuses on two routes.
 */
const STATUS: Partial<Record<ErrorCode, number>> = {
  'invalid-json': 400,
  'invalid-body': 400,
  'invalid-variables': 400,
  'invalid-options': 400,
  'invalid-composition': 400,
  'limit-exceeded': 400,
  'lint-failed': 400,
  'webhook-secret-missing': 400,
  // A request's page naming a file outside its project (a posted document, a variable value).
  'path-outside-project': 400,
  unauthorized: 401,
  'custom-html-disabled': 403,
  'not-found': 404,
  'render-not-found': 404,
  'method-not-allowed': 405,
  'idempotency-conflict': 409,
  'render-cancelled': 409,
  'render-not-running': 409,
  'render-expired': 410,
  'body-too-large': 413,
  'url-too-long': 414,
  'headers-too-large': 431,
  'too-many-renders': 429,
  'render-timeout': 504,
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}

export function apiError(
  code: ErrorCode,
  message: string,
  options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown> } = {},
): SeekframeError {
  return new SeekframeError(code, message, { stage: options.stage ?? 'config', retryable: options.retryable ?? false, ...(options.details ? { details: options.details } : {}) });
}

/** The one error body: `{error: {code, message, stage?, retryable, details?}}`. */
export function errorBody(error: SeekframeError | SeekframeErrorData): { error: SeekframeErrorData } {
  return { error: error instanceof SeekframeError ? error.toJSON() : error };
}

/** Anything thrown inside a route becomes a SeekframeError; a stack never reaches the client. */
export function asApiError(error: unknown): SeekframeError {
  if (error instanceof SeekframeError) return error;
  return new SeekframeError('internal-error', 'The render API hit an unexpected problem; try again, and report it if it persists.', { retryable: true });
}
