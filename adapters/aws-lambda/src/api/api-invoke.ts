import type { DistributedProgress } from '../progress/aggregate-progress.js';
import { startLambdaRender, type LambdaApiOptions, type StartedRender } from './lambda-render-api.js';
import { readRenderProgress } from './render-progress.js';

/**
 * The API function's direct-invoke events (the typed client uses these through the Lambda
 * Invoke API, with the caller's IAM identity, instead of the public URL).
 */
export type ApiInvokeEvent = { type: 'start'; id: string; request: unknown } | { type: 'progress'; id: string };

export function isApiInvokeEvent(event: unknown): event is ApiInvokeEvent {
  const type = (event as { type?: unknown } | null)?.type;
  return type === 'start' || type === 'progress';
}

export async function handleApiInvoke(options: LambdaApiOptions, event: ApiInvokeEvent): Promise<StartedRender | DistributedProgress> {
  if (event.type === 'start') return startLambdaRender(options, { id: event.id, request: event.request ?? {} });
  return readRenderProgress(options, event.id);
}
