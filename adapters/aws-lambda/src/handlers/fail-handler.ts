import { failedData } from '@seekframe/producer/webhooks';
import { failureData } from '../retry/retry-table.js';
import { sendRenderEvent } from '../webhooks/render-webhook-events.js';
import { getJson, putJson, renderKeys } from '@seekframe/producer/distributed';
import type { FinalStatus } from '../progress/progress-records.js';
import type { HandlerDeps } from './handler-deps.js';

/**
 * What a Step Functions Catch hands on: the error name and a Cause (Lambda's error JSON). Or, from
 * the API after DELETE /api/render/:id (`cancelled: true`), a cancel to announce: the API recorded
 * it, a stopped execution runs no fail step, and this function has the time for the retries.
 */
export type FailEvent = { renderId: string; error: { Error?: string; Cause?: string } } | { renderId: string; cancelled: true };

/**
 * Records the render's failure in status.json, so progress answers with the typed error, and sends
 * render.failed; for a cancel only the event (code render-cancelled), as every face sends it.
 */
export async function failHandler(deps: Pick<HandlerDeps, 'store' | 'now' | 'webhooks'>, event: FailEvent): Promise<FinalStatus> {
  if ('cancelled' in event) {
    const status = (await getJson<FinalStatus>(deps.store, renderKeys(event.renderId).status)) ?? {
      status: 'cancelled',
      finishedAt: new Date((deps.now ?? Date.now)()).toISOString(),
    };
    const error = {
      code: 'render-cancelled' as const,
      message: `Render ${event.renderId} was cancelled (DELETE /api/render/${event.renderId}).`,
      stage: 'capture' as const,
      retryable: false,
    };
    // Only a render that stayed cancelled hears it (one that finished first keeps its own end).
    if (status.status === 'cancelled') await sendRenderEvent(deps, event.renderId, 'render.failed', () => failedData(error));
    return status;
  }
  const name = event.error.Error ?? 'Error';
  let message = event.error.Cause ?? '';
  try {
    const cause = JSON.parse(message) as { errorMessage?: unknown };
    if (typeof cause.errorMessage === 'string') message = cause.errorMessage;
  } catch {
    // a Cause that is not Lambda's JSON (States.Timeout has plain text)
  }
  const status: FinalStatus = {
    status: 'failed',
    finishedAt: new Date((deps.now ?? Date.now)()).toISOString(),
    error: failureData(name, message),
  };
  await putJson(deps.store, renderKeys(event.renderId).status, status);
  await sendRenderEvent(deps, event.renderId, 'render.failed', () => failedData(status.error!));
  return status;
}
