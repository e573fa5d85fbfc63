import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.js';

/** One POST of one event, as `GET /api/render/:id` lists it (the schema is also the type). */
export const WebhookAttemptSchema = z.object({
  eventId: z.string(),
  event: z.enum(WEBHOOK_EVENT_TYPES),
  attempt: z.number().int().min(1).describe('1 for the first try.'),
  at: z.string().describe('ISO time the attempt started.'),
  status: z
    .number()
    .int()
    .nullable()
    .describe("The receiver's HTTP status; null when none came (timeout, network error, refused address)."),
  ok: z.boolean(),
  durationMs: z.number(),
  error: z.string().optional().describe('Why it failed, a sentence; absent when it succeeded.'),
  willRetry: z.boolean().describe('Whether another attempt follows.'),
});

export type WebhookAttempt = z.output<typeof WebhookAttemptSchema>;
