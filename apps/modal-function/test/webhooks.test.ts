import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackAddress, isPrivateAddress, isUnspecifiedAddress, localhostAddresses, refusedAddressKind } from '@seekframe/producer';
import { refusalHint, signWebhook, verifyWebhook } from '@seekframe/producer/webhooks';
import { startWebhookReceiver, thisNetworkUrl, type WebhookReceiver } from '@seekframe/render-api/contract-suite';
import { APP_DIR, PYTHON } from './start-python-app.js';

// src/webhook_addresses.py, src/webhook_delivery.py and src/webhooks.py against the TypeScript
// rules and a real receiver on 127.0.0.1. Every URL here is on this machine: refusals point at
// 0.0.0.0 / [::] at a loopback receiver's port, which would record a leak if a check broke.

const SECRET = 'modal-webhook-secret-41d7';
const run = promisify(execFile);

/** Runs `code` with src/ importable; `input` is JSON on stdin (`INPUT` in the code); answers its printed JSON. */
async function python(code: string, input: unknown = null, env: Record<string, string> = {}): Promise<any> {
  const child = spawn(PYTHON, ['-c', `import json, sys\nINPUT = json.load(sys.stdin)\n${code}`], {
    cwd: path.join(APP_DIR, 'src'),
    env: {
      ...process.env,
      PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`,
      PYTHONDONTWRITEBYTECODE: '1',
      ...env,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdin.end(JSON.stringify(input));
  const code_ = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code_ !== 0) throw new Error(`python exited ${code_}: ${err}`);
  return JSON.parse(out);
}

/** The target check-request.mjs answers for a URL (WHATWG parse). */
function target(url: string) {
  const parsed = new URL(url);
  const scheme = parsed.protocol.slice(0, -1);
  return {
    scheme,
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    hostLabel: parsed.hostname,
    port: Number(parsed.port) || (scheme === 'https' ? 443 : 80),
    path: `${parsed.pathname}${parsed.search}`,
  };
}

/** deliver() of one event to `url` from Python; answers the attempts and the event sent. */
function deliver(url: string, options: { allowLoopback: boolean; retryDelays?: number[]; timeout?: number; env?: Record<string, string> }) {
  const code = [
    'from webhook_delivery import build_event, deliver',
    'event = build_event("fc-test", "render.completed", {"url": "http://127.0.0.1/api/render/fc-test", "size": 1, "durationMs": 2, "frames": 10}, {"customData": {"order": "A-17", "note": "caf\\u00e9 \\ud800"}})',
    'attempts = deliver(INPUT["target"], event, secret=INPUT["secret"], allow_loopback=INPUT["allowLoopback"], retry_delays=tuple(INPUT["retryDelays"]), timeout=INPUT["timeout"])',
    'print(json.dumps({"event": event, "attempts": attempts}))',
  ].join('\n');
  return python(
    code,
    {
      target: target(url),
      secret: SECRET,
      allowLoopback: options.allowLoopback,
      retryDelays: options.retryDelays ?? [0.05, 0.05, 0.05, 0.05],
      timeout: options.timeout ?? 10,
    },
    options.env,
  );
}

const servers: Server[] = [];
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function receiver(options: { failFirst?: number } = {}): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(options);
  receivers.push(started);
  return started;
}

/** A server on 127.0.0.1 answering every request with `handle`; answers its URL and the requests it got. */
async function server(
  handle: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; hits: number }> {
  const state = { url: '', hits: 0 };
  const sockets = new Set<Socket>();
  const started = createServer((req, res) => {
    state.hits++;
    handle(req, res);
  });
  started.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const close = started.close.bind(started);
  started.close = ((callback?: (error?: Error) => void) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  }) as typeof started.close;
  servers.push(started);
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(started.address() as AddressInfo).port}/hook`;
  return state;
}

describe('src/webhook_addresses.py', () => {
  it('is_private_address and is_loopback_address answer as isPrivateAddress and isLoopbackAddress (@seekframe/producer), without traffic', async () => {
    const cases = [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '100.128.0.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.32.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:127.0.0.2',
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:8.8.8.8',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::808:808',
      '64:ff9b:1::a00:1',
      '64:ff9b:1:1::808:808',
      '2002:7f00:1::',
      '2002:808:808::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00::1',
      'ff02::1',
      '2001::1',
      '2001:db8::1',
      '3fff::1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:81b::200e',
      '4000::1',
      'not-an-address',
      '',
    ];
    cases.push(
      // The unspecified address in its spellings (refused with a hint of its own) and its neighbours.
      '0.1.2.3',
      '0.255.255.255',
      '1.0.0.0',
      '::ffff:0.0.0.0',
      '::ffff:0.1.2.3',
      '::ffff:1.0.0.0',
      '::0',
      '0:0:0:0:0:0:0:0',
      '::2',
      '::ffff:0:0',
    );
    const answer = await python(
      [
        'from webhook_addresses import is_private_address, is_loopback_address, is_unspecified_address, refused_address_kind',
        'print(json.dumps([[is_private_address(a), is_loopback_address(a), is_unspecified_address(a), refused_address_kind(a)] for a in INPUT]))',
      ].join('\n'),
      cases,
    );
    expect(answer.map((row: unknown[], i: number) => [cases[i], ...row])).toEqual(
      cases.map((a) => [a, isPrivateAddress(a), isLoopbackAddress(a), isUnspecifiedAddress(a), refusedAddressKind(a)]),
    );
  });

  it('localhost names (RFC 6761) are loopback by definition on both sides, and only those names', async () => {
    const names = [
      'localhost',
      'localhost.',
      'LOCALHOST',
      'x.localhost',
      'a.b.localhost.',
      'X.LocalHost',
      'localhost.example.com',
      'notlocalhost',
      'localhostx',
      'example.com',
      '127.0.0.1',
    ];
    const answer = await python(
      'from webhook_addresses import localhost_addresses\nprint(json.dumps([[a for _f, a in (localhost_addresses(n) or [])] or None for n in INPUT]))',
      names,
    );
    expect(answer).toEqual(names.map((name) => localhostAddresses(name)?.map((entry) => entry.address) ?? null));
  });

  it('the refusal hint for each kind is the TypeScript one (only a loopback refusal suggests RENDER_WEBHOOK_ALLOW_LOOPBACK)', async () => {
    const kinds = ['loopback', 'unspecified', 'private', null];
    const answer = await python('from webhook_addresses import refusal_hint\nprint(json.dumps([refusal_hint(k) for k in INPUT]))', kinds);
    expect(answer).toEqual(kinds.map((kind) => refusalHint(kind === null ? new Error('x') : { kind })));
    expect(answer.filter((hint: string) => hint.includes('set RENDER_WEBHOOK_ALLOW_LOOPBACK=true'))).toHaveLength(1);
  });

  it('check_webhook_url refuses x.localhost / localhost. without asking the resolver, and opens them with the opt-in', async () => {
    // socket.getaddrinfo is replaced by a recorder that fails: any call is a lookup that must not happen.
    const code = [
      'import socket, webhook_addresses',
      'asked = []',
      'def recorder(host, *args, **kwargs):',
      '    asked.append(host)',
      '    raise OSError("no lookups here")',
      'socket.getaddrinfo = recorder',
      'out = []',
      'for host, allow in INPUT:',
      '    try:',
      '        webhook_addresses.check_webhook_url({"host": host, "port": 9, "hostLabel": host}, allow, timeout=1)',
      '        out.append([host, allow, "ok", None])',
      '    except webhook_addresses.AddressRefused as e:',
      '        out.append([host, allow, str(e), e.kind])',
      'print(json.dumps({"out": out, "asked": asked}))',
    ].join('\n');
    const hosts = ['localhost', 'localhost.', 'x.localhost', 'A.B.LOCALHOST.'];
    const answer = await python(code, [...hosts.map((h) => [h, false]), ...hosts.map((h) => [h, true])]);
    expect(answer.asked).toEqual([]);
    for (const [host, allow, outcome, kind] of answer.out) {
      if (allow) expect(outcome, host).toBe('ok');
      else {
        expect(outcome, host).toMatch(/resolves to 127\.0\.0\.1, a loopback/);
        expect(kind, host).toBe('loopback');
      }
    }
  });
});

describe('src/webhook_delivery.py', () => {
  it('signs as signWebhook: the documented example and a body with non-ASCII text', async () => {
    const answer = await python(
      'from webhook_delivery import sign\nprint(json.dumps([sign(b["body"].encode(), b["secret"], b["t"]) for b in INPUT]))',
      [
        { body: 'hello', secret: 'whsec-test-3f1a', t: 1767225600 },
        { body: '{"a":"caf\u00e9 \u6f22"}', secret: SECRET, t: 1767225601 },
      ],
    );
    expect(answer[0]).toBe('t=1767225600,v1=0669fb8f24d800a1a373dbebdf6d58e4f514e1dd9d17defbc87b9e8b2a399746');
    expect(answer[1]).toBe(await signWebhook({ body: '{"a":"caf\u00e9 \u6f22"}', secret: SECRET, timestamp: 1767225601 }));
  });

  it('a delivery to a loopback receiver (RENDER_WEBHOOK_ALLOW_LOOPBACK) passes verifyWebhook, with the headers of the TypeScript sender; a changed body fails it', async () => {
    const hooks = await receiver();
    const { event, attempts } = await deliver(hooks.url, { allowLoopback: true });
    expect(attempts).toMatchObject([{ eventId: event.id, event: 'render.completed', attempt: 1, status: 200, ok: true, willRetry: false }]);
    expect(hooks.deliveries).toHaveLength(1);
    const [delivery] = hooks.deliveries;
    const verified = await verifyWebhook({ body: delivery!.body, headers: delivery!.headers, secret: SECRET });
    expect(verified).toEqual(event);
    expect(delivery!.body).toBe(JSON.stringify(event));
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);
    expect(delivery!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Seekframe-Webhooks/1',
      'seekframe-webhook-id': event.id,
      'seekframe-event': 'render.completed',
      host: new URL(hooks.url).host,
      'content-length': String(Buffer.byteLength(delivery!.body)),
    });
    expect(delivery!.headers['seekframe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(
      verifyWebhook({ body: delivery!.body.replace('"frames":10', '"frames":11'), headers: delivery!.headers, secret: SECRET }),
    ).rejects.toMatchObject({ code: 'webhook-signature-invalid' });
    await expect(verifyWebhook({ body: delivery!.body, headers: delivery!.headers, secret: 'another-secret' })).rejects.toMatchObject({
      code: 'webhook-signature-invalid',
    });
  });

  it('retries a failing receiver with one event id, signing each attempt afresh; every attempt is recorded', async () => {
    const hooks = await receiver({ failFirst: 2 });
    const { event, attempts } = await deliver(hooks.url, { allowLoopback: true });
    expect(attempts.map((a: any) => [a.attempt, a.status, a.ok, a.willRetry, a.error ?? null])).toEqual([
      [1, 500, false, true, 'the receiver answered HTTP 500'],
      [2, 500, false, true, 'the receiver answered HTTP 500'],
      [3, 200, true, false, null],
    ]);
    expect(hooks.deliveries.map((d) => d.headers['seekframe-webhook-id'])).toEqual([event.id, event.id, event.id]);
    for (const delivery of hooks.deliveries)
      expect((await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: SECRET })).id).toBe(event.id);
    expect(attempts.every((a: any) => new Date(a.at).toISOString() === a.at && a.durationMs >= 0)).toBe(true);
  });

  it('refuses loopback without the opt-in, and private addresses with it (0.0.0.0, [::], mapped): one attempt, not retried, nothing received', async () => {
    const hooks = await receiver();
    const port = new URL(hooks.url).port;
    const refused = [
      [hooks.url, false],
      [`http://localhost:${port}/hooks/seekframe`, false],
      [thisNetworkUrl(hooks), true],
      [`http://[::]:${port}/hooks/seekframe`, true],
      [`http://[::ffff:0.0.0.0]:${port}/hooks/seekframe`, true],
    ] as const;
    for (const [url, allowLoopback] of refused) {
      const { attempts } = await deliver(url, { allowLoopback });
      expect(attempts, url).toHaveLength(1);
      expect(attempts[0], url).toMatchObject({ attempt: 1, status: null, ok: false, willRetry: false });
      expect(attempts[0].error, url).toMatch(/^refused: .* resolves to .*, a loopback\/private\/link-local address/);
    }
    expect(hooks.deliveries).toEqual([]);
  });

  it('follows no redirect and retries no 4xx; a receiver that never answers is given up at the time limit and retried', async () => {
    const hooks = await receiver();
    const redirecting = await server((_req, res) => res.writeHead(302, { location: hooks.url }).end());
    const redirected = await deliver(redirecting.url, { allowLoopback: true });
    expect(redirected.attempts).toMatchObject([{ status: 302, ok: false, willRetry: false }]);
    expect(redirected.attempts[0].error).toMatch(/do not follow redirects/);
    expect(hooks.deliveries).toEqual([]);

    const refusing = await server((_req, res) => res.writeHead(410).end('gone'));
    expect((await deliver(refusing.url, { allowLoopback: true })).attempts).toMatchObject([
      { status: 410, ok: false, willRetry: false, error: 'the receiver answered HTTP 410' },
    ]);

    // Headers then a body that never ends: the status counts, the read stops at the time limit.
    const trickling = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('still going');
    });
    expect((await deliver(trickling.url, { allowLoopback: true, timeout: 0.5 })).attempts).toMatchObject([{ status: 200, ok: true }]);

    const silent = await server(() => undefined);
    const hung = await deliver(silent.url, { allowLoopback: true, timeout: 0.5, retryDelays: [0.05] });
    expect(hung.attempts.map((a: any) => [a.status, a.error, a.willRetry])).toEqual([
      [null, 'no answer within 500 ms', true],
      [null, 'no answer within 500 ms', false],
    ]);
    expect(silent.hits).toBe(2);
  });
});

describe('src/webhook_delivery.py over https', () => {
  it('verifies the certificate against the name and sends it in SNI and Host: refused while the CA is unknown, delivered once it is trusted', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'modal-tls-'));
    try {
      const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ]);
      const names: string[] = [];
      const bodies: { host: string | undefined; body: string; headers: import('node:http').IncomingHttpHeaders }[] = [];
      const tls = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
        let body = '';
        req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        req.on('end', () => {
          bodies.push({ host: req.headers.host, body, headers: req.headers });
          res.writeHead(204).end();
        });
      });
      tls.on('secureConnection', (socket) => names.push(String((socket as import('node:tls').TLSSocket).servername)));
      servers.push(tls);
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const url = `https://localhost:${(tls.address() as AddressInfo).port}/hooks/tls?x=1`;

      const untrusted = await deliver(url, { allowLoopback: true, retryDelays: [] });
      expect(untrusted.attempts).toMatchObject([{ status: null, ok: false }]);
      expect(untrusted.attempts[0].error).toMatch(/CERTIFICATE_VERIFY_FAILED/);
      expect(bodies).toEqual([]);

      const trusted = await deliver(url, { allowLoopback: true, retryDelays: [], env: { SSL_CERT_FILE: cert } });
      expect(trusted.attempts).toMatchObject([{ status: 204, ok: true }]);
      expect(names).toEqual(['localhost']);
      expect(bodies.map((b) => b.host)).toEqual([`localhost:${(tls.address() as AddressInfo).port}`]);
      expect((await verifyWebhook({ body: bodies[0]!.body, headers: bodies[0]!.headers, secret: SECRET })).id).toBe(trusted.event.id);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('src/webhooks.py', () => {
  it('a Notifier sends started, one progress per interval, then the final event, in order, and nothing after it; progress gets one attempt', async () => {
    const hooks = await receiver({ failFirst: 1 });
    const code = [
      'from webhooks import Notifier',
      'records = []',
      'n = Notifier("fc-order", {"url": INPUT["url"], "target": INPUT["target"]}, secret=INPUT["secret"], allow_loopback=True, record=records.append, retry_delays=(0.05, 0.05), progress_interval=3600)',
      'n.progress({"progress": 0.5, "stage": "capture", "framesRendered": 5, "totalFrames": 10})',
      'n.progress({"progress": 0.6, "stage": "capture", "framesRendered": 6, "totalFrames": 10})',
      'n.failed({"code": "render-timeout", "message": "too slow", "stage": "capture", "retryable": True})',
      'n.completed({"url": "x", "size": 1, "durationMs": 1, "frames": 10})',
      'n.settle()',
      'print(json.dumps(records[-1]))',
    ].join('\n');
    const attempts = await python(code, { url: hooks.url, target: target(hooks.url), secret: SECRET });
    expect(attempts.map((a: any) => [a.event, a.status])).toEqual([
      ['render.started', 500],
      ['render.started', 200],
      ['render.progress', 500],
      ['render.failed', 500],
      ['render.failed', 200],
    ]);
    const events = [];
    for (const delivery of hooks.deliveries)
      events.push(await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: SECRET }));
    expect(events.map((e) => e.type)).toEqual(['render.started', 'render.started', 'render.progress', 'render.failed', 'render.failed']);
    expect(events.every((e) => e.renderId === 'fc-order' && !('customData' in e))).toBe(true);
    const failed = events.at(-1) as Extract<(typeof events)[number], { type: 'render.failed' }>;
    expect(failed.data.error).toMatchObject({ code: 'render-timeout', message: 'too slow', stage: 'capture', retryable: true });
    expect(events[2]!.data).toEqual({ progress: 0.5, stage: 'capture', framesRendered: 5, totalFrames: 10 });
  });
});
