/**
 * Check a signed webhook from any Seekframe render API before trusting it: the signature, its
 * age and the event's shape. Web Crypto only, so it runs in Node, Workers, Deno and browsers,
 * from `@seekframe/render-api/webhooks`.
 *
 * ```ts
 * import { verifyWebhook } from '@seekframe/render-api/webhooks';
 * const event = await verifyWebhook({ body, headers: request.headers, secret: process.env.RENDER_WEBHOOK_SECRET! });
 * ```
 * @module Webhooks
 */
export {
  verifyWebhook,
  signWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_EVENT_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookEventType,
} from '@seekframe/render-api/webhooks';
