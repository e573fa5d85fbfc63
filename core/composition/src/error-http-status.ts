import type { ErrorCode } from './errors.js';

/** The statuses an error answer may have. */
export type ErrorHttpStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 410 | 413 | 414 | 429 | 431 | 500 | 502 | 503 | 504;

/**
 * The HTTP status of every error code, for every HTTP face (the render API of each template, the
 * producer server, the Lambda API, the render container). Total over ERROR_CODES: a new code does
 * not compile until it has a status here, so two faces can never answer one code differently.
 *
 * The rule: a request the client can fix is 4xx (refused before a render starts, or a render the
 * client's own input broke in a way it can correct: variables, options, limits); a render that
 * failed for any other reason is 500; a render past its time is 504; a server that is stopping
 * is 503. Codes that only a CLI, the player or a build raises still get a status (500), so an
 * error that unexpectedly reaches a server answers something sensible.
 */
export const ERROR_HTTP_STATUS = {
  // ---- the request itself
  'bad-request': 400,
  'invalid-json': 400,
  'invalid-body': 400,
  'invalid-options': 400,
  'invalid-argument': 400,
  'invalid-variables': 400,
  'invalid-variable-values': 400,
  'invalid-composition': 400,
  'invalid-edit': 400,
  'invalid-timing': 400,
  'invalid-color-grading': 400,
  'invalid-lut': 400,
  'invalid-batch': 400,
  'invalid-storage-key': 400,
  'empty-composition': 400,
  'entry-not-found': 400,
  'format-not-distributable': 400,
  'limit-exceeded': 400,
  'lint-failed': 400,
  // --strict: a transparent composition asked for in a format without alpha (the client picks the format).
  'alpha-flattened': 400,
  // The composition loads a library from an npm CDN that its project has not installed.
  'package-not-installed': 400,
  // A `webhook` in the body with no RENDER_WEBHOOK_SECRET on the deployment to sign with.
  'webhook-secret-missing': 400,
  // A request's page naming a file outside its project (a posted document, a variable value).
  'path-outside-project': 400,
  'path-outside-root': 400,
  unauthorized: 401,
  // verifyWebhook() refusing a delivery: a receiver that answers with this table says who it does not trust.
  'webhook-signature-invalid': 401,
  'custom-html-disabled': 403,
  // A local server's own pages only (the preview studio): no token would help, so not 401.
  'origin-refused': 403,
  'not-found': 404,
  'render-not-found': 404,
  'output-not-found': 404,
  'method-not-allowed': 405,
  'idempotency-conflict': 409,
  'render-cancelled': 409,
  'render-not-running': 409,
  'source-changed': 409,
  'render-expired': 410,
  'body-too-large': 413,
  'html-too-large': 413,
  'variables-too-large': 413,
  'url-too-long': 414,
  'too-many-renders': 429,
  'headers-too-large': 431,
  // ---- the server
  'shutting-down': 503,
  'render-timeout': 504,
  'chunk-timeout': 504,
  'internal-error': 500,
  'invalid-server-options': 500,
  'invalid-runtime-config': 500,
  'bundle-missing': 500,
  'player-bundle-missing': 500,
  'storage-failed': 500,
  'invalid-job': 500,
  'queue-unavailable': 503,
  'render-lost': 500,
  'output-missing': 500,
  'output-write-failed': 500,
  'container-unavailable': 500,
  'lambda-invoke-failed': 500,
  // ---- a render that failed (the page, the browser, ffmpeg, the distributed pipeline)
  'render-failed': 500,
  'memory-limit-exceeded': 500,
  'alpha-lost': 500,
  'asset-not-found': 500,
  'remote-asset-failed': 500,
  'media-source-refused': 500,
  'page-dialog': 500,
  'page-load-failed': 500,
  'page-script-error': 500,
  'page-unresponsive': 500,
  'ready-failed': 500,
  'ready-timeout': 500,
  'seek-timeout': 500,
  'invalid-seek': 500,
  'runtime-missing': 500,
  'blank-render': 500,
  'sub-composition-empty': 500,
  'clip-source-unreadable': 500,
  'color-grading-cross-origin': 500,
  'color-grading-unavailable': 500,
  'browser-crashed': 500,
  'browser-launch-failed': 500,
  'browser-not-found': 500,
  'browser-binary-unavailable': 500,
  'beginframe-unsupported': 500,
  // A warning's code: a render that meets it captures with beginframe and succeeds. Listed so every code has a status.
  'canvas-capture-blocked': 500,
  'capture-failed': 500,
  'capture-mode-unsupported': 500,
  'capture-timeout': 500,
  'audio-mix-failed': 500,
  'encoder-closed': 500,
  'ffmpeg-exited': 500,
  'ffmpeg-not-found': 500,
  'hdr-unsupported': 500,
  'media-probe-failed': 500,
  'no-frames': 500,
  'video-extract-failed': 500,
  'segment-mismatch': 500,
  'segment-missing': 500,
  'plan-hash-mismatch': 500,
  'version-mismatch': 500,
  // ---- raised by tools, not servers (a status all the same)
  'batch-failed': 500,
  'batch-fail-fast': 500,
  'docker-image-missing': 500,
  'docker-not-found': 500,
  'docker-run-failed': 500,
  'docker-unreachable': 500,
  'insecure-host': 500,
  'load-superseded': 500,
  'not-ready': 500,
  'player-failed': 500,
  'player-load-failed': 500,
  'port-in-use': 500,
  'preview-failed': 500,
  'server-listen-failed': 500,
  'target-exists': 500,
  'target-not-empty': 500,
} as const satisfies Record<ErrorCode, ErrorHttpStatus>;

/**
 * Codes no HTTP face answers by design: raised by a command-line tool, the player or a build.
 * They keep a status above (500) for the day one reaches a server anyway; the error reference
 * shows "—" for them instead, so nobody writes a client that waits for a 500 that never comes.
 */
export const TOOL_ONLY_CODES = [
  'batch-failed',
  'batch-fail-fast',
  'docker-image-missing',
  'docker-not-found',
  'docker-run-failed',
  'docker-unreachable',
  'insecure-host',
  'load-superseded',
  'not-ready',
  'player-failed',
  'player-load-failed',
  'port-in-use',
  'preview-failed',
  'server-listen-failed',
  'target-exists',
  'target-not-empty',
] as const satisfies readonly ErrorCode[];

/** The status of a code; a code that is not ours (data from an older peer) is 500. */
export function httpStatusOf(code: string): ErrorHttpStatus {
  return Object.hasOwn(ERROR_HTTP_STATUS, code) ? (ERROR_HTTP_STATUS as Record<string, ErrorHttpStatus>)[code]! : 500;
}
