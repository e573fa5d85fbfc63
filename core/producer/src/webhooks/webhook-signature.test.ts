import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { signWebhook, verifyWebhook } from './webhook-signature.js';

const secret = 'whsec-test-3f1a';
const body = JSON.stringify({
  id: 'evt_1',
  type: 'render.completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  renderId: 'r1',
  data: { url: 'https://x/y.mp4', size: 10, durationMs: 5, frames: 3 },
});
const t = 1_767_225_600; // 2026-01-01T00:00:00Z

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeekframeError);
  expect((error as SeekframeError).code).toBe('webhook-signature-invalid');
  return (error as SeekframeError).details!.reason as string;
}

describe('signWebhook / verifyWebhook', () => {
  it('the signature is HMAC-SHA256 over "<t>.<body>" in hex (a fixed vector any language can reproduce)', async () => {
    // echo -n "1767225600.hello" | openssl dgst -sha256 -hmac whsec-test-3f1a
    expect(await signWebhook({ body: 'hello', secret, timestamp: t })).toBe(
      't=1767225600,v1=0669fb8f24d800a1a373dbebdf6d58e4f514e1dd9d17defbc87b9e8b2a399746',
    );
  });

  it('accepts a good signature (Headers or a plain header object, any header case) and answers the event', async () => {
    const signature = await signWebhook({ body, secret, timestamp: t });
    const event = await verifyWebhook({ body, headers: new Headers({ 'seekframe-signature': signature }), secret, now: t * 1000 + 30_000 });
    expect(event).toMatchObject({ id: 'evt_1', type: 'render.completed', renderId: 'r1' });
    await expect(
      verifyWebhook({ body: new TextEncoder().encode(body), headers: { 'Seekframe-Signature': signature }, secret, now: t * 1000 }),
    ).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('refuses a changed body, another secret, an old or a future timestamp, and a missing or malformed header', async () => {
    const signature = await signWebhook({ body, secret, timestamp: t });
    const now = t * 1000;
    expect(
      await refusal(
        verifyWebhook({ body: body.replace('"size":10', '"size":11'), headers: { 'seekframe-signature': signature }, secret, now }),
      ),
    ).toBe('signature-mismatch');
    expect(await refusal(verifyWebhook({ body, headers: { 'seekframe-signature': signature }, secret: 'other', now }))).toBe(
      'signature-mismatch',
    );
    expect(await refusal(verifyWebhook({ body, headers: { 'seekframe-signature': signature }, secret, now: now + 301_000 }))).toBe(
      'timestamp-out-of-tolerance',
    );
    expect(await refusal(verifyWebhook({ body, headers: { 'seekframe-signature': signature }, secret, now: now - 301_000 }))).toBe(
      'timestamp-out-of-tolerance',
    );
    // A tighter window is the receiver's choice.
    expect(
      await refusal(
        verifyWebhook({ body, headers: { 'seekframe-signature': signature }, secret, now: now + 61_000, toleranceSeconds: 60 }),
      ),
    ).toBe('timestamp-out-of-tolerance');
    // Re-signing an old body with a new timestamp needs the secret: swapping t alone fails.
    expect(
      await refusal(
        verifyWebhook({
          body,
          headers: { 'seekframe-signature': signature.replace(`t=${t}`, `t=${t + 400}`) },
          secret,
          now: now + 400_000,
        }),
      ),
    ).toBe('signature-mismatch');
    expect(await refusal(verifyWebhook({ body, headers: {}, secret, now }))).toBe('missing-signature');
    expect(await refusal(verifyWebhook({ body, headers: { 'seekframe-signature': 'v1=abc' }, secret, now }))).toBe('malformed-signature');
  });

  it('accepts when any of several v1 values matches (a secret being rotated)', async () => {
    const signature = await signWebhook({ body, secret, timestamp: t });
    const header = `t=${t},v1=${'0'.repeat(64)},${signature.split(',')[1]}`;
    await expect(verifyWebhook({ body, headers: { 'seekframe-signature': header }, secret, now: t * 1000 })).resolves.toMatchObject({
      id: 'evt_1',
    });
  });
});

describe('verifyWebhook: what it refuses besides a bad signature', () => {
  it('a correctly signed body that is not a JSON object: webhook-signature-invalid, reason invalid-body (never a bare SyntaxError)', async () => {
    for (const text of ['not json at all', '', '[1,2]', 'null', '42', '"text"', '{"unterminated":']) {
      const signature = await signWebhook({ body: text, secret, timestamp: t });
      expect(await refusal(verifyWebhook({ body: text, headers: { 'seekframe-signature': signature }, secret, now: t * 1000 })), text).toBe(
        'invalid-body',
      );
    }
  });

  it('an empty or blank secret: webhook-signature-invalid, reason missing-secret (never a Web Crypto error)', async () => {
    const signature = await signWebhook({ body, secret, timestamp: t });
    for (const empty of ['', '   ', undefined as unknown as string]) {
      expect(await refusal(verifyWebhook({ body, headers: { 'seekframe-signature': signature }, secret: empty, now: t * 1000 }))).toBe(
        'missing-secret',
      );
    }
  });

  it('now is milliseconds (as Date.now()) or a Date; a seconds value is refused as the caller mistake it is (invalid-options, field now)', async () => {
    const signature = await signWebhook({ body, secret, timestamp: t });
    const headers = { 'seekframe-signature': signature };
    await expect(verifyWebhook({ body, headers, secret, now: new Date(t * 1000 + 5_000) })).resolves.toMatchObject({ id: 'evt_1' });
    await expect(verifyWebhook({ body, headers, secret, now: t * 1000 })).resolves.toMatchObject({ id: 'evt_1' });
    const error = await verifyWebhook({ body, headers, secret, now: t }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-options', details: { field: 'now' } });
    expect((error as Error).message).toMatch(/milliseconds.*looks like seconds/);
  });
});
