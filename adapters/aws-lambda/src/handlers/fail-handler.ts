import { failedData } from '@seekframe/producer/webhooks';
import { failureData } from '../retry/retry-table.js';
import { sendRenderEvent } from '../webhooks/render-webhook-events.js';
import { putJson, renderKeys } from '@seekframe/producer/distributed';
import type { FinalStatus } from '../progress/progress-records.js';
import type { HandlerDeps } from './handler-deps.js';

/** What a Step Functions Catch hands on: the error name and a Cause (Lambda's error JSON). */
export interface FailEvent {
  renderId: string;
  error: { Error?: string; Cause?: string };
}

/** Records the render's failure in status.json, so progress answers with the typed error. */
export async function failHandler(deps: Pick<HandlerDeps, 'store' | 'now' | 'webhooks'>, event: FailEvent): Promise<FinalStatus> {
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
