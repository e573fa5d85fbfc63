import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, thisNetworkUrl, type WebhookReceiver } from '@seekframe/render-api/contract-suite';
import { verifyWebhook } from '@seekframe/render-api/webhooks';
import { TINY_COMPOSITION } from './helpers/start-render-server.js';
import { startLocalWorker, type LocalWorker } from './helpers/start-local-worker.js';

const SECRET = 'cf-webhook-secret-71d0';

/**
 * Signed webhooks on Cloudflare, in the real Workers runtime (Miniflare) with the container's
 * server on the host: the Worker checks the webhook at POST, the job's Durable Object sends the
 * events (started, completed with the /r/<key> URL made absolute) to a real receiver on
 * 127.0.0.1 (RENDER_WEBHOOK_ALLOW_LOOPBACK=true), retrying a receiver that fails twice.
 */
let worker: LocalWorker;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ failFirst: 2 });
  worker = await startLocalWorker({
    compositionDir: TINY_COMPOSITION,
    vars: { RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' },
    container: { maxConcurrent: 1 },
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const post = (body: unknown) =>
  fetch(`${worker.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });

describe('Cloudflare template: signed webhooks from the job object', () => {
  it('private webhook URLs are refused at POST (400 invalid-options), even with the loopback opt-in', async () => {
    // Addresses that stay on this machine should the refusal break (0.0.0.0 lands on the loopback
    // receiver; [::ffff:0:0] is 0.0.0.0 too); the ranges one by one are server-network-host.test.ts's.
    const port = new URL(receiver.url).port;
    for (const url of [thisNetworkUrl(receiver), `http://[::ffff:0.0.0.0]:${port}/x`, `http://[::]:${port}/x`]) {
      const response = await post({ webhook: { url } });
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as { error: { code: string; details: unknown } }).error).toMatchObject({
        code: 'invalid-options',
        details: { field: 'webhook.url' },
      });
    }
    expect(receiver.deliveries).toEqual([]);
  });

  it('a render sends started and completed, each retried past two 500s; the attempts show in the status', async () => {
    const response = await post({ variables: { title: 'Hook' }, webhook: { url: receiver.url, customData: { ref: 'cf-1' } } });
    expect(response.status).toBe(202);
    const { id, statusUrl } = (await response.json()) as { id: string; statusUrl: string };
    await receiver.waitFor(
      (deliveries) => deliveries.some((d) => d.headers['seekframe-event'] === 'render.completed' && d.answered === 200),
      180_000,
    );

    const byType = (type: string) => receiver.deliveries.filter((d) => d.headers['seekframe-event'] === type);
    expect(byType('render.started').map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(byType('render.completed').map((d) => d.answered)).toEqual([500, 500, 200]);
    const completed = await verifyWebhook({
      body: byType('render.completed')[2]!.body,
      headers: byType('render.completed')[2]!.headers,
      secret: SECRET,
    });
    expect(completed).toMatchObject({ type: 'render.completed', renderId: id, customData: { ref: 'cf-1' }, data: { frames: 10 } });
    const url = (completed.data as { url: string }).url;
    expect(url).toBe(`${worker.url}/r/renders/${id}.mp4`);
    expect((await fetch(url)).status).toBe(200);

    let attempts: { event: string; status: number | null }[] = [];
    // Until the completed event's attempts show (a bound for a machine that barely runs the Worker).
    for (
      const shownBy = Date.now() + 120_000;
      !attempts.some((a) => a.event === 'render.completed' && a.status === 200) && Date.now() < shownBy;
    ) {
      const status = await fetch(`${worker.url}${statusUrl}`, { headers: { accept: 'application/json' }, redirect: 'manual' });
      attempts = ((await status.json()) as { webhook?: { attempts: typeof attempts } }).webhook?.attempts ?? [];
      if (!attempts.some((a) => a.event === 'render.completed' && a.status === 200))
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(attempts.filter((a) => a.event === 'render.completed').map((a) => a.status)).toEqual([500, 500, 200]);
  }, 240_000);
});
