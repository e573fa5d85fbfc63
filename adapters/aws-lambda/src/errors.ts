import { SeekframeError, type ErrorStage } from '@seekframe/composition';

/** Every error this adapter raises itself; each is in the README error list. */
export type LambdaErrorCode =
  | 'plan-hash-mismatch'
  | 'version-mismatch'
  | 'browser-binary-unavailable'
  | 'format-not-distributable'
  | 'variables-too-large'
  | 'chunk-timeout'
  | 'segment-missing'
  | 'render-not-found'
  | 'idempotency-conflict'
  | 'invalid-json'
  | 'invalid-body'
  | 'lambda-invoke-failed'
  | 'storage-failed';

export function lambdaError(
  code: LambdaErrorCode,
  message: string,
  options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
): SeekframeError {
  return new SeekframeError(code, message, { stage: options.stage ?? 'config', retryable: options.retryable ?? false, ...options });
}
