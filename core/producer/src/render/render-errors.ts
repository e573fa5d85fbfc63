import { cancelledError, SeekframeError } from '@seekframe/composition';
import type { ProblemLog } from '../serve/problem-log.js';

/**
 * Errors that are often only the visible consequence of a missing local file or a failed remote
 * asset (an image that never decodes, a video ffprobe cannot read). When the problem log holds
 * such a problem, it is the message the user needs.
 */
const CONSEQUENCES = new Set([
  'ready-failed',
  'ready-timeout',
  'page-load-failed',
  'page-script-error',
  'seek-timeout',
  'media-probe-failed',
  'video-extract-failed',
  'audio-mix-failed',
  'capture-failed',
  'render-failed',
]);

export function rootCause(error: SeekframeError, problems: ProblemLog | undefined): SeekframeError {
  const problem = problems?.first();
  if (problem && CONSEQUENCES.has(error.code)) return problem;
  const pending = problems?.pendingRemote() ?? [];
  if (error.code === 'ready-timeout' && pending.length > 0) {
    // The browser only knows the page did not load; the server knows which remote URL is hanging.
    return new SeekframeError(
      'ready-timeout',
      `${error.message} Still waiting for ${pending.join(', ')} (no answer yet); check that server, or copy the file into the project.`,
      { stage: error.stage ?? 'capture', retryable: true, details: { ...error.details, pending }, cause: error },
    );
  }
  return error;
}

/**
 * The error of a render that was stopped: the caller's cancel (`render-cancelled`), or a limit's
 * own error (`render-timeout`, `memory-limit-exceeded`, see render-guards.ts). undefined when
 * neither signal fired.
 */
export function abortError(cancel: AbortSignal | undefined, limits: AbortSignal | undefined): SeekframeError | undefined {
  if (cancel?.aborted) {
    // A host may abort with our own error (an enclosing render's wall-time limit): keep it.
    if (cancel.reason instanceof SeekframeError && cancel.reason.code === 'render-timeout') return cancel.reason;
    return cancelledError(cancel);
  }
  if (limits?.aborted) return limits.reason as SeekframeError;
  return undefined;
}
