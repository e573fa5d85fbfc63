import { checkWebhookUrl, createPublicWebhookSender } from '@seekframe/producer';
import type { WebhookGate } from '@seekframe/producer/webhooks';
import { renderApiSettings } from '@seekframe/render-api';
import { lambdaEnv } from '../handlers/lambda-env.js';
import type { LambdaWebhooks } from './render-webhook-events.js';

/**
 * The webhook settings every Seekframe function reads (sst.config.ts sets them on all of them):
 * `RENDER_WEBHOOK_SECRET` signs deliveries (unset: a `webhook` is refused at POST), and
 * `RENDER_WEBHOOK_ALLOW_LOOPBACK=true` lets a local run deliver to 127.0.0.1. Deliveries connect
 * to public addresses only, through the same checked lookup as a render's remote media.
 */
export function webhooksFromEnv(env: Record<string, string | undefined>): { gate: WebhookGate; webhooks?: LambdaWebhooks } {
  // The rule every face shares: a blank secret or a malformed opt-in refuses the function's start.
  const { webhookSecret: secret, webhookAllowLoopback } = renderApiSettings({}, lambdaEnv(env));
  const policy = { allowLoopback: webhookAllowLoopback };
  const gate: WebhookGate = { ...(secret ? { secret } : {}), checkUrl: (url) => checkWebhookUrl(url, policy) };
  return secret ? { gate, webhooks: { secret, send: createPublicWebhookSender(policy) } } : { gate };
}
