import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookEventSchema, type WebhookEvent } from '@seekframe/producer/webhooks';
import { call, pollUntilDone, post, RENDER_TEST_MS } from './contract-http.js';
import { expectError } from './contract-routes.js';
import { useTarget, type RenderApiContractOptions } from './run-render-api-contract.js';
import { startWebhookReceiver, thisNetworkUrl, type WebhookReceiver } from './webhook-receiver.js';

const SECRET = 'contract-webhook-secret-9c2e';
/** Every event's three attempts (1 s and 4 s apart), after the render: generous for a busy machine. */
const DELIVERIES_ARRIVE_MS = 120_000;
/** The attempts of the last delivery showing in the status. */
const ATTEMPTS_SHOW_MS = 60_000;
const RENDER_TIMEOUT = RENDER_TEST_MS + DELIVERIES_ARRIVE_MS + ATTEMPTS_SHOW_MS;

/**
 * Signed webhooks (RENDER_WEBHOOK_SECRET): refused without a secret or for an address the
 * deployment may not reach, then one real render whose receiver on 127.0.0.1
 * (RENDER_WEBHOOK_ALLOW_LOOPBACK=true) fails each event twice before accepting it.
 *
 * Every URL here stays on the machine even if a refusal broke: the refused private address is
 * `0.0.0.0` at the receiver's port ("this network", not loopback, so the opt-in keeps refusing
 * it; Linux connects it to the loopback receiver, which would record the leak). The ranges one by
 * one (10/8, 169.254/16, fd00::/8, mapped forms) are checked without traffic, at the level of the
 * address rules (private-address.test.ts, server-network-host.test.ts).
 */
export function defineWebhookContract(options: RenderApiContractOptions): void {
  describe('webhooks without RENDER_WEBHOOK_SECRET', () => {
    const base = useTarget(options, {});

    it('a body with a webhook is refused: 400 webhook-secret-missing, naming the setting', async () => {
      const answer = await post(base(), { webhook: { url: 'http://127.0.0.1:9/seekframe' } });
      expectError(answer, 400, 'webhook-secret-missing');
      expect(answer.json.error.message).toMatch(/RENDER_WEBHOOK_SECRET/);
    });
  });

  describe('RENDER_WEBHOOK_SECRET (no loopback opt-in)', () => {
    const base = useTarget(options, { webhookSecret: SECRET });
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('a loopback, private or link-local webhook URL is refused at POST (400 invalid-options, field webhook.url) and gets nothing', async () => {
      // Literal addresses only: refused by their class before any connection (never contacted).
      for (const url of [
        receiver.url,
        'http://[::1]:9/x',
        thisNetworkUrl(receiver),
        `http://[::ffff:0.0.0.0]:${new URL(receiver.url).port}/hook`,
      ]) {
        const answer = await post(base(), { webhook: { url } });
        expectError(answer, 400, 'invalid-options');
        expect(answer.json.error.details).toMatchObject({ field: 'webhook.url' });
        expect(answer.json.error.message).toMatch(/webhook\.url/);
      }
      expect(receiver.deliveries).toEqual([]);
    });

    it('a webhook of the wrong shape is 400 invalid-body naming the field', async () => {
      for (const webhook of [
        { url: 'ftp://127.0.0.1/x' },
        { url: 'not a url' },
        { url: 'http://127.0.0.1:9/x', extra: 1 },
        'http://127.0.0.1:9/x',
      ]) {
        const answer = await post(base(), { webhook });
        expectError(answer, 400, 'invalid-body');
        expect(JSON.stringify(answer.json.error.details.problems)).toMatch(/webhook/);
      }
    });
  });

  describe('RENDER_WEBHOOK_SECRET with RENDER_WEBHOOK_ALLOW_LOOPBACK=true (local testing)', () => {
    const base = useTarget(options, { webhookSecret: SECRET, webhookAllowLoopback: true });
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver({ failFirst: 2 });
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('a private address stays refused with the opt-in, and gets nothing; the refusal does not suggest the opt-in that is already set', async () => {
      for (const url of [thisNetworkUrl(receiver), `http://[::]:${new URL(receiver.url).port}/hook`]) {
        const answer = await post(base(), { webhook: { url } });
        expectError(answer, 400, 'invalid-options');
        expect(answer.json.error.message, url).not.toMatch(/set RENDER_WEBHOOK_ALLOW_LOOPBACK=true/);
        expect(answer.json.error.message, url).toMatch(/RENDER_WEBHOOK_ALLOW_LOOPBACK cannot open it/);
      }
      expect(receiver.deliveries).toEqual([]);
    });

    it(
      'a render posts signed started/completed events; a receiver failing twice gets each once more each time; the attempts show in the status',
      async () => {
        const started = await post(
          base(),
          { variables: { title: 'Hook' }, webhook: { url: receiver.url, customData: { order: 'A-17' } } },
          { prefer: 'respond-async' },
        );
        expect(started.status).toBe(202);
        const { final } = await pollUntilDone(base(), started.json.statusUrl, { accept: 'application/json' });
        expect(final.status, `the render ended: ${JSON.stringify(final.json)}`).toBe(200);

        const ok = (type: string) => (deliveries: typeof receiver.deliveries) =>
          deliveries.some((d) => d.headers['seekframe-event'] === type && d.answered === 200);
        await receiver.waitFor(ok('render.completed'), DELIVERIES_ARRIVE_MS);
        const events: WebhookEvent[] = [];
        for (const delivery of receiver.deliveries)
          events.push(await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: SECRET }));
        const id = started.json.id as string;
        expect(events.every((e) => e.renderId === id && JSON.stringify(e.customData) === '{"order":"A-17"}')).toBe(true);
        // Every delivery is what the OpenAPI document's `webhooks` section promises (the same schema).
        expect(events.map((e) => WebhookEventSchema.safeParse(e).error?.issues ?? [])).toEqual(events.map(() => []));

        // Each retried event arrived three times with one id (500, 500, 200), in order.
        const byType = (type: string) => receiver.deliveries.filter((d) => d.headers['seekframe-event'] === type);
        for (const type of ['render.started', 'render.completed']) {
          expect(
            byType(type).map((d) => d.answered),
            type,
          ).toEqual([500, 500, 200]);
          expect(new Set(byType(type).map((d) => d.headers['seekframe-webhook-id'])).size, type).toBe(1);
        }
        // Progress has one attempt (the next supersedes it), so against this receiver it only ever fails.
        expect(byType('render.progress').every((d) => d.answered === 500)).toBe(true);
        const types = events.map((e) => e.type);
        expect(types[0]).toBe('render.started');
        expect(types.at(-1)).toBe('render.completed');
        const completed = events.at(-1) as Extract<WebhookEvent, { type: 'render.completed' }>;
        expect(completed.data).toMatchObject({ frames: 10, size: expect.any(Number), durationMs: expect.any(Number) });
        expect(completed.data.size).toBeGreaterThan(0);
        expect(new URL(completed.data.url).protocol).toMatch(/^https?:$/);

        // A body changed on the way is refused with the same headers.
        const last = receiver.deliveries.at(-1)!;
        await expect(
          verifyWebhook({ body: last.body.replace('"frames":10', '"frames":11'), headers: last.headers, secret: SECRET }),
        ).rejects.toMatchObject({ code: 'webhook-signature-invalid' });

        // The status lists every attempt: event, attempt number, status, time, error.
        let attempts: { event: string; attempt: number; status: number | null; ok: boolean; at: string; error?: string }[] = [];
        const deadline = Date.now() + ATTEMPTS_SHOW_MS;
        while (Date.now() < deadline) {
          const status = await call(base(), started.json.statusUrl, { headers: { accept: 'application/json' } });
          attempts = status.json?.webhook?.attempts ?? [];
          if (attempts.some((a) => a.event === 'render.completed' && a.ok)) break;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        const summary = (type: string) => attempts.filter((a) => a.event === type).map((a) => [a.attempt, a.status, a.ok]);
        expect(summary('render.started')).toEqual([
          [1, 500, false],
          [2, 500, false],
          [3, 200, true],
        ]);
        expect(summary('render.completed')).toEqual([
          [1, 500, false],
          [2, 500, false],
          [3, 200, true],
        ]);
        expect(attempts.find((a) => !a.ok)!.error).toMatch(/500/);
        expect(attempts.every((a) => !Number.isNaN(Date.parse(a.at)))).toBe(true);
      },
      RENDER_TIMEOUT,
    );

    it(
      'a cancelled render: GET with Accept: application/json answers 409 render-cancelled with the webhook and its attempts (render.failed retried)',
      async () => {
        const own = await startWebhookReceiver({ failFirst: 1 });
        try {
          const started = await post(
            base(),
            { variables: { title: 'Cancel', hold: true }, webhook: { url: own.url } },
            { prefer: 'respond-async' },
          );
          expect(started.status).toBe(202);
          expect((await call(base(), started.json.statusUrl, { method: 'DELETE' })).status).toBe(202);
          // The last event is retried after the end: the status lists each attempt as it is made.
          let answer = await call(base(), started.json.statusUrl, { headers: { accept: 'application/json' } });
          const failedOk = (a: { event: string; ok: boolean }) => a.event === 'render.failed' && a.ok;
          const deadline = Date.now() + 60_000;
          while (Date.now() < deadline && !(answer.json?.webhook?.attempts ?? []).some(failedOk)) {
            await new Promise((resolve) => setTimeout(resolve, 300));
            answer = await call(base(), started.json.statusUrl, { headers: { accept: 'application/json' } });
          }
          expectError(answer, 409, 'render-cancelled');
          expect(answer.json).toMatchObject({ id: started.json.id, status: 'cancelled', webhook: { url: own.url } });
          const failed = (answer.json.webhook.attempts as { event: string; attempt: number; ok: boolean }[]).filter(
            (a) => a.event === 'render.failed',
          );
          expect(failed.map((a) => [a.attempt, a.ok])).toEqual([
            [1, false],
            [2, true],
          ]);
          // Without Accept: application/json the answer is the error alone, as before.
          const plain = await call(base(), started.json.statusUrl);
          expectError(plain, 409, 'render-cancelled');
          expect(Object.keys(plain.json)).toEqual(['error']);
        } finally {
          await own.close();
        }
      },
      RENDER_TIMEOUT,
    );
  });
}
