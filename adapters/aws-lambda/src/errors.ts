import { SeekframeError, type ErrorCode, type ErrorStage } from '@seekframe/composition';

/**
 * Codes this adapter adds (in the error reference, generated from ERROR_DOCS): plan-hash-mismatch, version-mismatch,
 * browser-binary-unavailable, format-not-distributable, variables-too-large, chunk-timeout,
 * segment-missing, lambda-invoke-failed, storage-failed. Errors default to stage `config`.
 */
export function lambdaError(
  code: ErrorCode,
  message: string,
  options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
): SeekframeError {
  return new SeekframeError(code, message, { stage: options.stage ?? 'config', retryable: options.retryable ?? false, ...options });
}
