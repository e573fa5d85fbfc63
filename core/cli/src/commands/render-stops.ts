import { cancelledError, SeekframeError } from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { forcedStopMessage } from '../listen-for-stops.js';
import { reportError } from '../report-error.js';

/**
 * `work` (loading the producer: a second or more on a busy machine), unless the render is stopped
 * first: then it ends at once with render-cancelled, as it would at any later stage. The loading
 * goes on unseen; bin/seekframe.js exits within a second after a stop whatever is still running.
 */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise<T>((resolve, reject) => {
    const onStop = (): void => reject(cancelledError(signal));
    signal.addEventListener('abort', onStop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onStop));
  });
}

/**
 * What a render does at a second SIGINT/SIGTERM, while the first one's clean-up still runs: no
 * more waiting. Every process it started is killed and its temp output and temp folders are
 * removed at once (the engine's stopNow), then it says so (a JSON error line with --json) and the
 * process exits with 130 or 143. Loads the engine, so a render calls it once the engine is loaded anyway.
 */
export async function cleanUpOnForcedStop(ctx: CliContext, json: boolean): Promise<void> {
  const { stopNow } = await import('@seekframe/engine');
  ctx.stops.onForcedExit((signal) => {
    stopNow();
    reportError(
      new SeekframeError('render-cancelled', forcedStopMessage(ctx.stops.signal, signal), { stage: 'capture', retryable: true }),
      ctx,
      json,
    );
  });
}
