import { SeekframeError } from '@seekframe/composition';
import { PageInterrupted } from './page-watch.js';

/** What classifying a failure needs of the browser session: whether the browser is still there. */
export interface CrashWitness {
  readonly browser: { readonly connected: boolean };
}

/** How long a failed call waits for its cause (a crash or disconnect event) before it is classified. */
const CAUSE_SETTLE_MS = 150;

/**
 * crashError once the cause has had a moment to show. A killed renderer or browser often fails
 * the pending call first ("Navigating frame was detached", "Execution context was destroyed",
 * "target ... is not a page") and reports the crash or the disconnect a few ms later; classified
 * at once, that was a capture-failed instead of browser-crashed. Only failures wait.
 */
export async function settledCrashError(
  session: CrashWitness,
  error: unknown,
  where: string,
  interrupted?: Promise<never>,
): Promise<SeekframeError> {
  if (error instanceof PageInterrupted) return crashError(session, error, where);
  const cause = await Promise.race([
    (interrupted ?? new Promise<never>(() => undefined)).then(
      () => undefined,
      (interruption: unknown) => interruption,
    ),
    settleFor(CAUSE_SETTLE_MS),
  ]);
  return crashError(session, cause instanceof PageInterrupted ? cause : error, where);
}

function settleFor(ms: number): Promise<undefined> {
  return new Promise((resolve) => {
    // unref: a failure classified at exit must not keep the process up.
    (setTimeout(resolve, ms) as { unref?: () => void }).unref?.();
  });
}

/**
 * A failure that is not already a SeekframeError, as one: `browser-crashed` when the renderer or
 * the browser is gone (or the message says so), the abort's reason when the render was aborted,
 * else `capture-failed`. Both are retryable: the frame pool starts the worker again.
 */
export function crashError(session: CrashWitness, error: unknown, where: string): SeekframeError {
  if (error instanceof PageInterrupted && error.interruption.kind === 'aborted') {
    const reason = error.interruption.reason;
    return reason instanceof SeekframeError
      ? reason
      : new SeekframeError('render-cancelled', 'The render was cancelled.', { stage: 'capture', cause: reason });
  }
  const detail = error instanceof Error ? error.message : String(error);
  if (
    error instanceof PageInterrupted ||
    !session.browser.connected ||
    /Target closed|Session closed|Connection closed|crash/i.test(detail)
  ) {
    return new SeekframeError(
      'browser-crashed',
      `The browser died ${where} (${detail}). It may have run out of memory: try fewer --workers or a smaller size.`,
      { stage: 'capture', retryable: true, cause: error },
    );
  }
  return new SeekframeError('capture-failed', `Capture failed ${where}: ${detail}`, { stage: 'capture', retryable: true, cause: error });
}
