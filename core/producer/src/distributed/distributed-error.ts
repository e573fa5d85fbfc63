import { SeekframeError, type ErrorCode, type ErrorStage } from '@seekframe/composition';

/** A SeekframeError of the distributed render path; stage `config` and not retryable unless said. */
export function distributedError(
  code: ErrorCode,
  message: string,
  options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
): SeekframeError {
  return new SeekframeError(code, message, { stage: options.stage ?? 'config', retryable: options.retryable ?? false, ...options });
}
