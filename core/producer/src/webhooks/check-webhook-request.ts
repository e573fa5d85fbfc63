import { SeekframeError } from '@seekframe/composition';
import type { WebhookRequest } from './webhook-request.js';

/** What a deployment checks a render's webhook with. */
export interface WebhookGate {
  /** `RENDER_WEBHOOK_SECRET`; unset = webhooks refused. */
  secret?: string | undefined;
  /** Throws (a sentence) when the URL's host may not be reached: loopback, private, link-local. */
  checkUrl: (url: string) => Promise<void>;
}

/**
 * A render's `webhook` is accepted only when the deployment can sign its deliveries (a
 * `RENDER_WEBHOOK_SECRET`) and its URL passes the address rule of remote media: a loopback,
 * private or link-local host is refused here, before the render starts, never at delivery time.
 * Every face that accepts `POST /api/render` calls this (400 either way).
 */
export async function checkWebhookRequest(webhook: WebhookRequest, gate: WebhookGate | undefined): Promise<void> {
  if (!gate?.secret) {
    throw new SeekframeError(
      'webhook-secret-missing',
      'This deployment cannot sign webhooks: set RENDER_WEBHOOK_SECRET on it (e.g. `openssl rand -hex 32`), or leave out `webhook` and poll GET /api/render/:id.',
      {
        stage: 'config',
        details: { field: 'webhook', setting: 'RENDER_WEBHOOK_SECRET' },
      },
    );
  }
  try {
    await gate.checkUrl(webhook.url);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SeekframeError(
      'invalid-options',
      `webhook.url ${webhook.url.slice(0, 200)} cannot receive deliveries: ${why}. ${refusalHint(error)}`,
      {
        stage: 'config',
        details: { field: 'webhook.url' },
      },
    );
  }
}

/**
 * What would help, by the kind of address refused (`kind` on the thrown error: 'loopback',
 * 'unspecified' or 'private'). Only a loopback refusal means the opt-in is off, so only it
 * suggests RENDER_WEBHOOK_ALLOW_LOOPBACK; the unspecified address is refused with or without it.
 */
export function refusalHint(error: unknown): string {
  const kind = (error as { kind?: unknown } | null)?.kind;
  if (kind === 'loopback')
    return 'Use a public http(s) address (for a receiver on this machine in local tests, set RENDER_WEBHOOK_ALLOW_LOOPBACK=true).';
  if (kind === 'unspecified')
    return 'The unspecified address (0.0.0.0, [::]) names no receiver, and RENDER_WEBHOOK_ALLOW_LOOPBACK cannot open it (it opens only 127.0.0.0/8, [::1] and localhost): use a public http(s) address, or 127.0.0.1 for a receiver on this machine in local tests.';
  return 'Use a public http(s) address.';
}
