// Worker-safe: Web Crypto, fetch and zod only; no `node:` module anywhere in this graph.
// (The Node sender that connects to public addresses only is in the package's main entry.)
export { WebhookRequestSchema, MAX_WEBHOOK_URL_LENGTH, MAX_WEBHOOK_CUSTOM_DATA_BYTES, type WebhookRequest } from './webhook-request.js';
export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_SCHEMAS,
  WebhookEventSchema,
  failedData,
  buildWebhookEvent,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookEventData,
  type WebhookProgressData,
  type WebhookCompletedData,
  type WebhookFailedData,
} from './webhook-events.js';
export {
  signWebhook,
  verifyWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_EVENT_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  type WebhookHeaders,
  type WebhookRefusal,
} from './webhook-signature.js';
export { WebhookAttemptSchema, type WebhookAttempt } from './webhook-attempt.js';
export {
  deliverWebhook,
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  type WebhookPost,
  type WebhookSender,
  type DeliveryOptions,
} from './deliver-webhook.js';
export {
  createWebhookNotifier,
  DEFAULT_PROGRESS_INTERVAL_MS,
  type RenderLifecycleListener,
  type WebhookNotifierOptions,
} from './webhook-notifier.js';
export { createFetchWebhookSender } from './fetch-webhook-sender.js';
export { checkWebhookRequest, refusalHint, type WebhookGate } from './check-webhook-request.js';
