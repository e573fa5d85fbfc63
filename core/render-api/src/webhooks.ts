// What a webhook receiver needs, Worker-safe (Web Crypto only, no `node:` module):
//   import { verifyWebhook } from '@seekframe/render-api/webhooks';
export {
  verifyWebhook,
  signWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_EVENT_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  WEBHOOK_EVENT_TYPES,
  WebhookEventSchema,
  type VerifyWebhookInput,
  type WebhookHeaders,
  type WebhookRefusal,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookProgressData,
  type WebhookCompletedData,
  type WebhookFailedData,
  type WebhookAttempt,
  type WebhookRequest,
} from '@seekframe/producer/webhooks';
