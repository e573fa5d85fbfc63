import { checkWebhookUrl, createPublicWebhookSender } from '@seekframe/producer';
import type { RenderApiWebhooks, WebhookSettings } from '../render-api-options.js';

/**
 * Webhooks for a render API on Node (the local twin, the Vercel and Modal templates): deliveries
 * connect through the public-address-only lookup that remote media uses, and a webhook URL is
 * checked with the same rule at POST. Undefined without a secret (a `webhook` is then refused).
 */
export function nodeWebhooks(
  settings: Partial<WebhookSettings> & Partial<Omit<RenderApiWebhooks, 'send' | 'checkUrl' | 'secret'>>,
): RenderApiWebhooks | undefined {
  const { webhookSecret, webhookAllowLoopback, ...tuning } = settings;
  if (!webhookSecret) return undefined;
  const policy = { allowLoopback: webhookAllowLoopback ?? false };
  return { ...tuning, secret: webhookSecret, send: createPublicWebhookSender(policy), checkUrl: (url) => checkWebhookUrl(url, policy) };
}
