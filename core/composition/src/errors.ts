/**
 * The one error type that crosses package, process and network boundaries.
 * `code` is stable and machine-readable; `message` is a sentence for the user that names the
 * file/field and the fix; `stage` says where in the pipeline it happened; `retryable` tells a
 * queue or a distributed runner whether trying again can help.
 */
export const ERROR_STAGES = ['config', 'lint', 'variables', 'load', 'media', 'serve', 'browser', 'capture', 'encode', 'output'] as const;
export type ErrorStage = (typeof ERROR_STAGES)[number];

/**
 * Every error code a user, a client or a host can see: one closed list, so a typo or a second
 * spelling of the same failure (`cancelled` next to `render-cancelled`) fails the type check.
 * Add a new code here and its `when`/`fix` to ERROR_DOCS (error-docs.ts): the type check asks for
 * it, and the docs site's error reference is generated from that table.
 */
export const ERROR_CODES = [
  'alpha-lost',
  'asset-not-found',
  'audio-mix-failed',
  'batch-failed',
  'beginframe-unsupported',
  'body-too-large',
  'browser-crashed',
  'browser-launch-failed',
  'browser-not-found',
  'canvas-capture-blocked',
  'capture-failed',
  'capture-mode-unsupported',
  'capture-timeout',
  'color-grading-cross-origin',
  'color-grading-unavailable',
  'custom-html-disabled',
  'docker-image-missing',
  'docker-not-found',
  'docker-run-failed',
  'docker-unreachable',
  'empty-composition',
  'encoder-closed',
  'entry-not-found',
  'ffmpeg-exited',
  'ffmpeg-not-found',
  'hdr-unsupported',
  'html-too-large',
  'idempotency-conflict',
  'insecure-host',
  'internal-error',
  'invalid-argument',
  'invalid-batch',
  'invalid-body',
  'invalid-color-grading',
  'invalid-composition',
  'invalid-edit',
  'invalid-json',
  'invalid-lut',
  'invalid-options',
  'invalid-runtime-config',
  'invalid-seek',
  'invalid-server-options',
  'invalid-timing',
  'invalid-variable-values',
  'invalid-variables',
  'limit-exceeded',
  'lint-failed',
  'load-superseded',
  'media-probe-failed',
  'media-source-refused',
  'memory-limit-exceeded',
  'method-not-allowed',
  'no-frames',
  'not-found',
  'not-ready',
  'output-missing',
  'output-not-found',
  'output-write-failed',
  'page-dialog',
  'page-load-failed',
  'page-script-error',
  'page-unresponsive',
  'path-outside-project',
  'path-outside-root',
  'player-bundle-missing',
  'player-failed',
  'player-load-failed',
  'port-in-use',
  'preview-failed',
  'ready-failed',
  'ready-timeout',
  'remote-asset-failed',
  'package-not-installed',
  'render-cancelled',
  'render-expired',
  'render-failed',
  'render-not-found',
  'render-not-running',
  'render-timeout',
  'runtime-missing',
  'seek-timeout',
  'server-listen-failed',
  'shutting-down',
  'source-changed',
  'target-exists',
  'target-not-empty',
  'too-many-renders',
  'unauthorized',
  'origin-refused',
  'url-too-long',
  'video-extract-failed',
  'sub-composition-empty',
  'clip-source-unreadable',
  'blank-render',
  'alpha-flattened',
  // the render core's split renders (planRender/renderFrames/assembleSegments)
  'segment-mismatch',
  // storage port and bundled assets (core/producer/src/storage, core/producer/src/assets)
  'invalid-storage-key',
  'bundle-missing',
  // distributed rendering on AWS Lambda (adapters/aws-lambda)
  'plan-hash-mismatch',
  'version-mismatch',
  'browser-binary-unavailable',
  'format-not-distributable',
  'variables-too-large',
  'chunk-timeout',
  'segment-missing',
  'lambda-invoke-failed',
  'storage-failed',
  // distributed rendering on your own machines: Redis + BullMQ (adapters/redis-fleet)
  'invalid-job',
  'queue-unavailable',
  'render-lost',
  // deploy template on Cloudflare (adapters/cloudflare-container)
  'container-unavailable',
  // requests Node's HTTP parser refused before any route ran (core/producer/src/server)
  'bad-request',
  'headers-too-large',
  // a batch row skipped after another failed under --batch-fail-fast (its manifest entry)
  'batch-fail-fast',
  // signed render webhooks (core/producer/src/webhooks)
  'webhook-secret-missing',
  'webhook-signature-invalid',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** True when `code` is one of ours (for data that crossed a process or network boundary). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}

export interface SeekframeErrorData {
  code: ErrorCode;
  message: string;
  stage?: ErrorStage;
  retryable: boolean;
  /** Extra facts for machines (file, field, url, frame...). Must be JSON-serialisable. */
  details?: Record<string, unknown>;
}

export class SeekframeError extends Error {
  readonly code: ErrorCode;
  readonly stage: ErrorStage | undefined;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { stage?: ErrorStage; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SeekframeError';
    this.code = code;
    this.stage = options.stage;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    // V8 keeps an error's stack frames, with their functions and receivers, until `stack` is first
    // read: an error kept as the cause of this one (a job's failure, held for its retention) would
    // keep what threw it alive, e.g. a crashed browser's whole connection. Reading the stacks now
    // leaves only text.
    void this.stack;
    if (options.cause instanceof Error) void options.cause.stack;
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

/**
 * The error of a render its caller stopped (Ctrl-C, SIGTERM, DELETE, a closed stream), naming the
 * reason the signal was aborted with. One sentence wherever a render can be stopped (the
 * producer, and the CLI while it is still loading the producer).
 */
export function cancelledError(signal: { readonly reason?: unknown }): SeekframeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason === undefined ? 'aborted' : String(signal.reason);
  return new SeekframeError('render-cancelled', `The render was cancelled (${reason}); no output was written.`, {
    stage: 'capture',
    retryable: true,
  });
}

/** Wraps anything thrown into a SeekframeError, keeping an existing one untouched. */
export function toSeekframeError(error: unknown, fallback: { code: ErrorCode; stage?: ErrorStage }): SeekframeError {
  if (error instanceof SeekframeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SeekframeError(fallback.code, message, { ...(fallback.stage ? { stage: fallback.stage } : {}), cause: error });
}
