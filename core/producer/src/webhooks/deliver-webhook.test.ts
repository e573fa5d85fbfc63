import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook } from './deliver-webhook.js';
import { checkWebhookUrl, createPublicWebhookSender } from './public-webhook-sender.js';
import { verifyWebhook } from './webhook-signature.js';
import type { WebhookEvent } from './webhook-events.js';

const secret = 'deliver-test-secret';
const event: WebhookEvent = {
  id: 'evt_t1',
  type: 'render.completed',
  createdAt: new Date().toISOString(),
  renderId: 'r1',
  data: { url: 'https://example.com/r1.mp4', size: 1, durationMs: 2, frames: 3 },
};
const noWait = async (): Promise<void> => undefined;

interface Hit {
  body: string;
  headers: IncomingMessage['headers'];
}

/** A real receiver on 127.0.0.1 answering the statuses in `answers` in turn (the last one repeats). */
async function receiver(answers: number[], extra: Record<string, string> = {}): Promise<{ url: string; hits: Hit[]; server: Server }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      hits.push({ body, headers: req.headers });
      res.writeHead(answers[Math.min(hits.length - 1, answers.length - 1)]!, extra).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('deliverWebhook over real HTTP (receiver on 127.0.0.1, loopback opted in)', () => {
  const send = createPublicWebhookSender({ allowLoopback: true });

  it('signs the body so verifyWebhook accepts it, with the event id and type headers', async () => {
    const target = await receiver([204]);
    const attempts = await deliverWebhook(target.url, event, { send, secret, sleep: noWait });
    expect(attempts).toMatchObject([{ attempt: 1, status: 204, ok: true, willRetry: false, event: 'render.completed', eventId: 'evt_t1' }]);
    const [hit] = target.hits;
    expect(hit!.headers['seekframe-webhook-id']).toBe('evt_t1');
    expect(hit!.headers['seekframe-event']).toBe('render.completed');
    expect(hit!.headers['content-type']).toBe('application/json');
    await expect(verifyWebhook({ body: hit!.body, headers: hit!.headers, secret })).resolves.toEqual(event);
  });

  it('a receiver that fails twice (500) then succeeds gets the same event three times; the waits follow the schedule', async () => {
    const target = await receiver([500, 500, 200]);
    const waits: number[] = [];
    const attempts = await deliverWebhook(target.url, event, {
      send,
      secret,
      retryDelaysMs: [10, 20, 30, 40],
      sleep: async (ms) => void waits.push(ms),
    });
    expect(attempts.map((a) => [a.attempt, a.status, a.ok, a.willRetry])).toEqual([
      [1, 500, false, true],
      [2, 500, false, true],
      [3, 200, true, false],
    ]);
    expect(waits).toEqual([10, 20]);
    expect(target.hits.map((h) => JSON.parse(h.body).id)).toEqual(['evt_t1', 'evt_t1', 'evt_t1']);
    // Each attempt is signed afresh and verifies on its own.
    for (const hit of target.hits)
      await expect(verifyWebhook({ body: hit.body, headers: hit.headers, secret })).resolves.toMatchObject({ id: 'evt_t1' });
  });

  it('stops after the last attempt of a receiver that keeps failing, and never retries a 4xx or a redirect', async () => {
    const failing = await receiver([503]);
    expect(await deliverWebhook(failing.url, event, { send, secret, retryDelaysMs: [1, 1, 1, 1], sleep: noWait })).toHaveLength(5);
    expect(failing.hits).toHaveLength(5);

    const refusing = await receiver([410]);
    expect(await deliverWebhook(refusing.url, event, { send, secret, sleep: noWait })).toMatchObject([
      { status: 410, ok: false, willRetry: false },
    ]);
    expect(refusing.hits).toHaveLength(1);

    // A redirect is the answer, never followed: the "secret" server it points to gets nothing.
    const secretServer = await receiver([200]);
    const redirecting = await receiver([307], { location: secretServer.url });
    const [attempt] = await deliverWebhook(redirecting.url, event, { send, secret, sleep: noWait });
    expect(attempt).toMatchObject({ status: 307, ok: false, willRetry: false });
    expect(attempt!.error).toMatch(/redirect/);
    expect(secretServer.hits).toEqual([]);
  });

  it('retries a timeout and a connection refused, and records why', async () => {
    const slow = createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    servers.push(slow);
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
    const timedOut = await deliverWebhook(slowUrl, event, { send, secret, timeoutMs: 200, retryDelaysMs: [1], sleep: noWait });
    expect(timedOut.map((a) => [a.status, a.willRetry])).toEqual([
      [null, true],
      [null, false],
    ]);
    expect(timedOut[0]!.error).toMatch(/no answer within 200 ms/);
    (slow as Server & { closeAllConnections(): void }).closeAllConnections();

    const closed = await receiver([200]);
    await new Promise((resolve) => closed.server.close(resolve));
    const refused = await deliverWebhook(closed.url, event, { send, secret, retryDelaysMs: [1], sleep: noWait });
    expect(refused.map((a) => a.willRetry)).toEqual([true, false]);
    expect(refused[0]!.error).toMatch(/ECONNREFUSED/);
  });
});

describe('the address rule (no traffic: refused before any socket opens)', () => {
  it('without the opt-in, loopback is refused at once and not retried; the receiver gets nothing', async () => {
    const target = await receiver([200]);
    const attempts = await deliverWebhook(target.url, event, { send: createPublicWebhookSender(), secret, sleep: noWait });
    expect(attempts).toMatchObject([{ attempt: 1, status: null, ok: false, willRetry: false }]);
    expect(attempts[0]!.error).toMatch(/loopback\/private\/link-local/);
    expect(target.hits).toEqual([]);
    await expect(checkWebhookUrl(target.url)).rejects.toThrow(/127\.0\.0\.1 resolves to 127\.0\.0\.1/);
  });

  it('the opt-in opens loopback only: private, link-local and names resolving to them stay refused', async () => {
    for (const url of [
      'http://10.1.2.3/x',
      'http://192.168.0.9/x',
      'http://169.254.169.254/latest',
      'http://[fd00::1]/x',
      'http://[::ffff:10.0.0.1]/x',
    ]) {
      await expect(checkWebhookUrl(url, { allowLoopback: true }), url).rejects.toThrow(/loopback\/private\/link-local/);
    }
    // A public-looking name that resolves into the LAN (no DNS: the resolver answers).
    const resolver = async () => [{ address: '10.0.0.7', family: 4 }];
    const attempts = await deliverWebhook('http://hooks.example.test/x', event, {
      send: createPublicWebhookSender({ allowLoopback: true, resolver }),
      secret,
      sleep: noWait,
    });
    expect(attempts).toMatchObject([{ status: null, willRetry: false }]);
    expect(attempts[0]!.error).toMatch(/10\.0\.0\.7/);
    await expect(checkWebhookUrl('http://localhost:9/x', { allowLoopback: true })).resolves.toBeUndefined();
    await expect(checkWebhookUrl('ftp://example.com/x')).rejects.toThrow(/only http/);
  });
});

describe('localhost names (RFC 6761): loopback by definition, never looked up', () => {
  /** A resolver that records every name it is asked and answers none: any call is a lookup that should not happen. */
  function recordingResolver(): { resolver: (host: string) => Promise<never>; asked: string[] } {
    const asked: string[] = [];
    return {
      asked,
      resolver: async (host) => {
        asked.push(host);
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    };
  }
  const names = ['localhost', 'localhost.', 'LocalHost.', 'x.localhost', 'a.b.localhost.', 'X.LOCALHOST'];

  it('checkWebhookUrl refuses each without the opt-in and accepts it with, asking no resolver', async () => {
    const { resolver, asked } = recordingResolver();
    for (const name of names) {
      await expect(checkWebhookUrl(`http://${name}:9/x`, { resolver }), name).rejects.toThrow(/resolves to 127\.0\.0\.1, a loopback/);
      await expect(checkWebhookUrl(`http://${name}:9/x`, { resolver, allowLoopback: true }), name).resolves.toBeUndefined();
    }
    expect(asked).toEqual([]);
    // Names that only look alike are ordinary names: they go to the resolver.
    for (const name of ['localhost.example.test', 'notlocalhost', 'localhostx']) {
      await expect(checkWebhookUrl(`http://${name}/x`, { resolver, allowLoopback: true }), name).rejects.toThrow(/could not be resolved/);
    }
    expect(asked).toEqual(['localhost.example.test', 'notlocalhost', 'localhostx']);
  });

  it('a delivery to x.localhost (opted in) connects to the loopback receiver without a lookup; without the opt-in nothing is sent', async () => {
    const target = await receiver([204]);
    const port = new URL(target.url).port;
    const { resolver, asked } = recordingResolver();
    const refused = await deliverWebhook(`http://x.localhost.:${port}/hook`, event, {
      send: createPublicWebhookSender({ resolver }),
      secret,
      sleep: noWait,
    });
    expect(refused).toMatchObject([{ status: null, willRetry: false }]);
    expect(target.hits).toEqual([]);
    const sent = await deliverWebhook(`http://x.localhost:${port}/hook`, event, {
      send: createPublicWebhookSender({ allowLoopback: true, resolver }),
      secret,
      sleep: noWait,
    });
    expect(sent).toMatchObject([{ status: 204, ok: true }]);
    expect(target.hits).toHaveLength(1);
    expect(asked).toEqual([]);
  });
});
