import { httpStatusOf, SeekframeError, type ErrorCode, type ErrorStage } from '@seekframe/composition';

/**
 * The HTTP status of an error code: ERROR_HTTP_STATUS in @seekframe/composition, the one table
 * every HTTP face answers with (kept under this name for the templates that import it).
 */
export function statusOf(code: ErrorCode): number {
  return httpStatusOf(code);
}

export function apiError(
  code: ErrorCode,
  message: string,
  options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown> } = {},
): SeekframeError {
  return new SeekframeError(code, message, {
    stage: options.stage ?? 'config',
    retryable: options.retryable ?? false,
    ...(options.details ? { details: options.details } : {}),
  });
}
