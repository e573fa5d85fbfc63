/**
 * The one error type that crosses package, process and network boundaries.
 * `code` is stable and machine-readable; `message` is a sentence for the user that names the
 * file/field and the fix; `stage` says where in the pipeline it happened; `retryable` tells a
 * queue or a distributed runner whether trying again can help.
 */
export type ErrorStage =
  | 'config'
  | 'lint'
  | 'variables'
  | 'load'
  | 'media'
  | 'serve'
  | 'browser'
  | 'capture'
  | 'encode'
  | 'output';

export interface SeekframeErrorData {
  code: string;
  message: string;
  stage?: ErrorStage;
  retryable: boolean;
  /** Extra facts for machines (file, field, url, frame...). Must be JSON-serialisable. */
  details?: Record<string, unknown>;
}

export class SeekframeError extends Error {
  readonly code: string;
  readonly stage: ErrorStage | undefined;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: string,
    message: string,
    options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SeekframeError';
    this.code = code;
    this.stage = options.stage;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  toJSON(): SeekframeErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.stage ? { stage: this.stage } : {}),
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
    };
  }

  static fromJSON(data: SeekframeErrorData): SeekframeError {
    return new SeekframeError(data.code, data.message, {
      ...(data.stage ? { stage: data.stage } : {}),
      retryable: data.retryable,
      ...(data.details ? { details: data.details } : {}),
    });
  }
}

/** Wraps anything thrown into a SeekframeError, keeping an existing one untouched. */
export function toSeekframeError(error: unknown, fallback: { code: string; stage?: ErrorStage }): SeekframeError {
  if (error instanceof SeekframeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SeekframeError(fallback.code, message, { ...(fallback.stage ? { stage: fallback.stage } : {}), cause: error });
}
