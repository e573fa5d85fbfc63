import { ERROR_DOCS, isErrorCode, type SeekframeErrorData } from '@seekframe/composition';

/** The four things a receiver hears about a render, in this order (progress any number of times). */
export const WEBHOOK_EVENT_TYPES = ['render.started', 'render.progress', 'render.completed', 'render.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookProgressData {
  /** 0..1 */
  progress: number;
  stage: string | null;
  framesRendered: number;
  totalFrames: number | null;
}

export interface WebhookCompletedData {
  /** Where the file is (an absolute URL when the deployment knows its own address, else a path on it). */
  url: string;
  /** Bytes of the output file. */
  size: number | null;
  /** Wall time of the render in milliseconds. */
  durationMs: number | null;
  /** Frames in the output. */
  frames: number | null;
}

export interface WebhookFailedData {
  error: { code: string; message: string; fix: string | null; stage: string | null; retryable: boolean };
}

interface EventBase<T extends WebhookEventType, D> {
  /** Unique per event: a receiver that got the same id twice (a retry after a lost answer) skips it. */
  id: string;
  type: T;
  /** ISO time the event happened (not the time of this delivery attempt). */
  createdAt: string;
  renderId: string;
  /** The `customData` the render was started with, as it was sent; absent when none was. */
  customData?: unknown;
  data: D;
}

/** The JSON body of one delivery. */
export type WebhookEvent =
  | EventBase<'render.started', Record<string, never>>
  | EventBase<'render.progress', WebhookProgressData>
  | EventBase<'render.completed', WebhookCompletedData>
  | EventBase<'render.failed', WebhookFailedData>;

export type WebhookEventData<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>['data'];

/** A new event of one render: a fresh id, the time, the caller's customData. */
export function buildWebhookEvent<T extends WebhookEventType>(
  input: { renderId: string; customData?: unknown; type: T; data: WebhookEventData<T> },
  options: { now?: () => number; newEventId?: () => string } = {},
): WebhookEvent {
  return {
    id: (options.newEventId ?? newEventId)(),
    type: input.type,
    createdAt: new Date((options.now ?? Date.now)()).toISOString(),
    renderId: input.renderId,
    ...(input.customData !== undefined ? { customData: input.customData } : {}),
    data: input.data,
  } as WebhookEvent;
}

function newEventId(): string {
  return `evt_${crypto.randomUUID().replace(/-/g, '')}`;
}

/** The error part of `render.failed`: the code, the message and the documented fix for the code. */
export function failedData(error: SeekframeErrorData): WebhookFailedData {
  const fix = isErrorCode(error.code) ? ERROR_DOCS[error.code].fix : null;
  return { error: { code: error.code, message: error.message, fix, stage: error.stage ?? null, retryable: error.retryable } };
}
