import { createFetchWebhookSender, createWebhookNotifier, type RenderLifecycleListener } from '@seekframe/producer/webhooks';
import { notifyJobUpdate, workerWebhookUrlCheck, type JobUpdate, type JobWebhookListener, type RenderJob } from '@seekframe/render-api';

/** The webhook settings the job object reads (wrangler secret / vars). */
export interface WebhookEnv {
  /** `npx wrangler secret put RENDER_WEBHOOK_SECRET`: signs deliveries; unset = webhooks refused at POST. */
  RENDER_WEBHOOK_SECRET?: string;
  /** "true" (local testing only): deliveries may go to 127.0.0.1 / localhost. */
  RENDER_WEBHOOK_ALLOW_LOOPBACK?: string;
}

/**
 * On Cloudflare the job's Durable Object sees the whole life cycle (the container's events, the
 * file in R2, the watchdog), so it sends the job's webhook events: each record change it applies
 * goes through `change`, which tells the listener what happened (the same rules as the shared
 * API's job store listener, notifyJobUpdate). Deliveries use `fetch` without following redirects; the
 * address rule was checked at POST and again before each POST.
 */
export function jobObjectWebhooks(
  env: WebhookEnv,
  hooks: {
    record: (id: string, attempts: NonNullable<RenderJob['webhookAttempts']>) => Promise<void>;
    origin: () => Promise<string | undefined>;
    waitUntil: (promise: Promise<unknown>) => void;
  },
) {
  let listener: JobWebhookListener | null | undefined;
  const secret = env.RENDER_WEBHOOK_SECRET?.trim();
  const send = createFetchWebhookSender({
    checkUrl: workerWebhookUrlCheck({ allowLoopback: env.RENDER_WEBHOOK_ALLOW_LOOPBACK?.trim() === 'true' }),
  });
  const listenerFor = (job: RenderJob): JobWebhookListener | null => {
    if (listener !== undefined) return listener;
    const webhook = job.request.webhook;
    if (!webhook || !secret) return (listener = null);
    const notifier: RenderLifecycleListener = createWebhookNotifier({
      renderId: job.id,
      webhook,
      secret,
      send,
      ...(job.webhookAttempts ? { previous: job.webhookAttempts } : {}),
      record: (attempts) => hooks.record(job.id, attempts),
    });
    return (listener = Object.assign(notifier, { baseUrl: 'http://localhost' }));
  };
  return {
    async change(update: JobUpdate, after: RenderJob): Promise<void> {
      const target = listenerFor(after);
      if (!target) return;
      // An R2 URL is absolute with R2_PUBLIC_URL, else /r/<key> on the Worker the render was
      // requested at (stored when the job starts, which comes after its first change).
      target.baseUrl = (await hooks.origin()) ?? target.baseUrl;
      notifyJobUpdate(target, update, after);
      hooks.waitUntil(target.settled());
    },
  };
}
