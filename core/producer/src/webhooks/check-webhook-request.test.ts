import { describe, expect, it } from 'vitest';
import { checkWebhookRequest } from './check-webhook-request.js';
import { checkWebhookUrl } from './public-webhook-sender.js';

// Literal addresses only: each is refused by its class before any lookup or connection.
const SECRET = 'check-webhook-request-secret';
const OPT_IN = 'set RENDER_WEBHOOK_ALLOW_LOOPBACK=true';

async function refusal(url: string, checkUrl: (url: string) => Promise<void>): Promise<string> {
  const error = await checkWebhookRequest({ url }, { secret: SECRET, checkUrl }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toMatchObject({ code: 'invalid-options', details: { field: 'webhook.url' } });
  return (error as Error).message;
}

describe('checkWebhookRequest: what the refusal tells the user to do', () => {
  // adapters/render-api/src/server-network-host.test.ts runs the same on the Worker's check.
  for (const [face, check] of [
    ['Node (checkWebhookUrl)', (allowLoopback: boolean) => (url: string) => checkWebhookUrl(url, { allowLoopback })],
  ] as const) {
    it(`${face}: 0.0.0.0 and [::] are refused with the opt-in set, and the message says the opt-in cannot help instead of suggesting it`, async () => {
      for (const url of ['http://0.0.0.0:9/x', 'http://[::]:9/x', 'http://[::ffff:0.0.0.0]:9/x', 'http://0.1.2.3:9/x']) {
        const message = await refusal(url, check(true));
        expect(message, url).not.toContain(OPT_IN);
        expect(message, url).toMatch(/unspecified address .* RENDER_WEBHOOK_ALLOW_LOOPBACK cannot open it/);
      }
    });

    it(`${face}: only a loopback refusal (the opt-in is off) suggests the opt-in; a private address is told to use a public one`, async () => {
      expect(await refusal('http://127.0.0.1:9/x', check(false))).toContain(OPT_IN);
      expect(await refusal('http://[::1]:9/x', check(false))).toContain(OPT_IN);
      for (const url of ['http://10.0.0.1/x', 'http://169.254.169.254/x', 'http://[fd00::1]/x']) {
        for (const allow of [false, true]) {
          const message = await refusal(url, check(allow));
          expect(message, url).toMatch(/Use a public http\(s\) address\.$/);
          expect(message, url).not.toContain('RENDER_WEBHOOK_ALLOW_LOOPBACK');
        }
      }
    });
  }
});
