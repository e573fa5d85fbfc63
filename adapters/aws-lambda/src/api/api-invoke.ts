import { parseRenderBody } from './render-body.js';
import { readRenderProgress, startRender, type RenderService, type StartedRender } from './render-service.js';
import type { DistributedProgress } from '../progress/aggregate-progress.js';

/**
 * The API function's direct-invoke events (the typed client uses these through the Lambda
 * Invoke API, with the caller's IAM identity, instead of the public URL).
 */
export type ApiInvokeEvent = { type: 'start'; id: string; request: unknown } | { type: 'progress'; id: string };

export function isApiInvokeEvent(event: unknown): event is ApiInvokeEvent {
  const type = (event as { type?: unknown } | null)?.type;
  return type === 'start' || type === 'progress';
}

export async function handleApiInvoke(service: RenderService, event: ApiInvokeEvent): Promise<StartedRender | DistributedProgress> {
  if (event.type === 'start') return startRender(service, { id: event.id, body: parseRenderBody(event.request ?? {}) });
  return readRenderProgress(service, event.id);
}
