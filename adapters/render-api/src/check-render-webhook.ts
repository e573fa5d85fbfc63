import type { WebhookRequest } from '@seekframe/producer/webhooks';
import { apiError } from './api-error.js';
import type { RenderApiWebhooks } from './render-api-options.js';

/**
 * A render's `webhook` is accepted only when the deployment can sign its deliveries (a
 * `RENDER_WEBHOOK_SECRET`) and its URL passes the address rule of remote media: a loopback,
 * private or link-local host is refused here, before the render starts, never at delivery time.
 */
export async function checkRenderWebhook(webhook: WebhookRequest, webhooks: Pick<RenderApiWebhooks, 'secret' | 'checkUrl'> | undefined): Promise<void> {
  if (!webhooks?.secret) {
    throw apiError('webhook-secret-missing', 'This deployment cannot sign webhooks: set RENDER_WEBHOOK_SECRET on it (e.g. `openssl rand -hex 32`), or leave out `webhook` and poll GET /api/render/:id.', {
      details: { field: 'webhook', setting: 'RENDER_WEBHOOK_SECRET' },
    });
  }
  try {
    await webhooks.checkUrl(webhook.url);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw apiError('invalid-options', `webhook.url ${webhook.url.slice(0, 200)} cannot receive deliveries: ${why}. Use a public http(s) address (for a receiver on this machine in local tests, set RENDER_WEBHOOK_ALLOW_LOOPBACK=true).`, {
      details: { field: 'webhook.url' },
    });
  }
}
