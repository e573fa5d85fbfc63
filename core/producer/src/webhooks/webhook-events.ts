import { z } from 'zod';
import { ERROR_DOCS, isErrorCode, type SeekframeErrorData } from '@seekframe/composition';

/** The four things a receiver hears about a render, in this order (progress any number of times). */
export const WEBHOOK_EVENT_TYPES = ['render.started', 'render.progress', 'render.completed', 'render.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// Schemas, not only types: the render API's OpenAPI document describes the deliveries from them
// (its `webhooks` section), so a receiver can generate its types the same way as a client's.

const WebhookProgressDataSchema = z.object({
  progress: z.number().min(0).max(1).describe('0..1'),
  stage: z.string().nullable(),
  framesRendered: z.number().int().min(0),
  totalFrames: z.number().int().min(0).nullable(),
});
export type WebhookProgressData = z.output<typeof WebhookProgressDataSchema>;

const WebhookCompletedDataSchema = z.object({
  url: z.string().describe('Where the file is (an absolute URL when the deployment knows its own address, else a path on it).'),
  size: z.number().int().min(0).nullable().describe('Bytes of the output file.'),
  durationMs: z.number().min(0).nullable().describe('Wall time of the render in milliseconds.'),
  frames: z.number().int().min(0).nullable().describe('Frames in the output.'),
});
export type WebhookCompletedData = z.output<typeof WebhookCompletedDataSchema>;

const WebhookFailedDataSchema = z.object({
  error: z.object({
    code: z.string().describe('An error code (see the error reference).'),
    message: z.string(),
    fix: z.string().nullable().describe('The documented fix for the code, when it has one.'),
    stage: z.string().nullable(),
    retryable: z.boolean(),
  }),
});
export type WebhookFailedData = z.output<typeof WebhookFailedDataSchema>;

function eventSchema<T extends WebhookEventType, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    id: z.string().describe('Unique per event: a receiver that got the same id twice (a retry after a lost answer) skips it.'),
    type: z.literal(type),
    createdAt: z.string().describe('ISO time the event happened (not the time of this delivery attempt).'),
    renderId: z.string(),
    customData: z.unknown().optional().describe('The `customData` the render was started with, as it was sent; absent when none was.'),
    data,
  });
}

/** One schema per event type, keyed by type (the OpenAPI document names each delivery after it). */
export const WEBHOOK_EVENT_SCHEMAS = {
  'render.started': eventSchema('render.started', z.object({})),
  'render.progress': eventSchema('render.progress', WebhookProgressDataSchema),
  'render.completed': eventSchema('render.completed', WebhookCompletedDataSchema),
  'render.failed': eventSchema('render.failed', WebhookFailedDataSchema),
} as const satisfies Record<WebhookEventType, z.ZodType>;

/** The JSON body of one delivery. */
export const WebhookEventSchema = z.discriminatedUnion('type', [
  WEBHOOK_EVENT_SCHEMAS['render.started'],
  WEBHOOK_EVENT_SCHEMAS['render.progress'],
  WEBHOOK_EVENT_SCHEMAS['render.completed'],
  WEBHOOK_EVENT_SCHEMAS['render.failed'],
]);
export type WebhookEvent = z.output<typeof WebhookEventSchema>;

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
