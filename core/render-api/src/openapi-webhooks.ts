import { z } from 'zod';
import type { ZodOpenApiPathItemObject } from 'zod-openapi';
import { WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@seekframe/producer/webhooks';

/** What each event tells the receiver (the same words as the webhooks guide). */
const WHEN: Record<WebhookEventType, string> = {
  'render.started': 'The render begins (first event, once).',
  'render.progress': 'While frames render, at most one every 5 seconds; one attempt only (the next progress event supersedes it).',
  'render.completed': 'The file is stored (last event): `url`, `size`, `durationMs`, `frames`.',
  'render.failed': 'The render failed or was cancelled (last event): the error with its documented fix.',
};

const DeliveryHeaders = z.object({
  'seekframe-signature': z
    .string()
    .describe('`t=<unix seconds>,v1=<64 hex digits>`: HMAC-SHA256 of `<t>.<body>` with RENDER_WEBHOOK_SECRET.'),
  'seekframe-webhook-id': z.string().describe('The event id, the same on every retry of this event.'),
  'seekframe-event': z.enum(WEBHOOK_EVENT_TYPES).describe('The event type.'),
});

/**
 * The OpenAPI 3.1 `webhooks` section: what a render posts to the `webhook.url` of its body, one
 * entry per event type, from the schemas the senders are checked against (contract suite).
 */
export function webhookOperations(): Record<WebhookEventType, ZodOpenApiPathItemObject> {
  const entries = WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        tags: ['webhooks'],
        summary: type,
        description: `${WHEN[type]} Sent when the render body has \`webhook.url\` and the deployment sets RENDER_WEBHOOK_SECRET; verify it with \`verifyWebhook\` from \`@seekframe/render-api/webhooks\`.`,
        security: [],
        requestParams: { header: DeliveryHeaders },
        requestBody: { required: true, content: { 'application/json': { schema: WEBHOOK_EVENT_SCHEMAS[type] } } },
        responses: {
          '2XX': { description: 'Received; not sent again.' },
          '4XX': { description: 'Refused; not sent again (a 3xx is not followed either: give the final URL).' },
          '5XX': {
            description:
              'Sent again (1 s, 4 s, 16 s, 64 s later), as is an event with no answer within 10 s (`render.progress`: one attempt only).',
          },
        },
      },
    } satisfies ZodOpenApiPathItemObject,
  ]);
  return Object.fromEntries(entries) as Record<WebhookEventType, ZodOpenApiPathItemObject>;
}
