import { describe, expect, it } from 'vitest';
import { checkWebhookRequest } from '@seekframe/producer/webhooks';
import { workerWebhookUrlCheck } from './server-network-host.js';

describe('workerWebhookUrlCheck (a Worker judges the URL alone; no DNS, no traffic)', () => {
  it('refuses loopback, private, link-local and localhost hosts; the opt-in opens loopback only', async () => {
    const strict = workerWebhookUrlCheck();
    const local = workerWebhookUrlCheck({ allowLoopback: true });
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]/x', 'http://api.localhost/x']) {
      await expect(strict(url), url).rejects.toThrow(/loopback\/private\/link-local/);
      await expect(local(url), url).resolves.toBeUndefined();
    }
    for (const url of [
      'http://10.0.0.1/x',
      'http://172.16.5.5/x',
      'http://192.168.0.1/x',
      'http://169.254.169.254/x',
      'http://100.64.0.1/x',
      'http://[fe80::1]/x',
      'http://[fd12::1]/x',
      'http://0.0.0.0/x',
    ]) {
      await expect(local(url), url).rejects.toThrow(/loopback\/private\/link-local/);
    }
    await expect(strict('https://hooks.example.com/seekframe')).resolves.toBeUndefined();
  });

  it('judges literals as URL parsing spells them: mapped, NAT64, 6to4 and odd IPv4 forms of private addresses are refused, opt-in or not', async () => {
    const local = workerWebhookUrlCheck({ allowLoopback: true });
    for (const url of [
      'http://[::ffff:127.0.0.1]/x', // URL parsing writes [::ffff:7f00:1]
      'http://[::ffff:169.254.169.254]/x',
      'http://[::ffff:a00:1]/x',
      'http://[64:ff9b::a9fe:a9fe]/x',
      'http://[2002:a9fe:a9fe::1]/x',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', // Teredo
      'http://[::]/x',
      'http://[::127.0.0.1]/x',
      'http://2852039166/x', // 169.254.169.254
      'http://192.0.0.170/x',
      'http://198.18.0.1/x',
      'http://224.0.0.1/x',
      'http://255.255.255.255/x',
    ]) {
      await expect(local(url), `${url} (${new URL(url).hostname})`).rejects.toThrow(/loopback\/private\/link-local/);
    }
    // Loopback spelt otherwise: refused without the opt-in, opened by it like 127.0.0.1.
    for (const url of ['http://0x7f.1/x', 'http://localhost./x', 'http://api.localhost../x']) {
      await expect(workerWebhookUrlCheck()(url), url).rejects.toThrow(/loopback\/private\/link-local/);
      await expect(local(url), url).resolves.toBeUndefined();
    }
    for (const url of ['https://[2606:4700::1111]/x', 'https://93.184.216.34/x', 'https://hooks.example.com./x']) {
      await expect(local(url), url).resolves.toBeUndefined();
    }
  });
});

describe('workerWebhookUrlCheck: what the refusal tells the user to do (checkWebhookRequest)', () => {
  const refusal = async (url: string, allowLoopback: boolean): Promise<string> => {
    const error = await checkWebhookRequest({ url }, { secret: 's', checkUrl: workerWebhookUrlCheck({ allowLoopback }) }).catch(
      (e: Error) => e,
    );
    expect(error, url).toMatchObject({ code: 'invalid-options' });
    return (error as Error).message;
  };

  it('the unspecified address under the opt-in: says the opt-in cannot open it, never to set it', async () => {
    for (const url of ['http://0.0.0.0:9/x', 'http://[::]:9/x', 'http://[::ffff:0.0.0.0]:9/x', 'http://0.1.2.3/x']) {
      const message = await refusal(url, true);
      expect(message, url).not.toContain('set RENDER_WEBHOOK_ALLOW_LOOPBACK=true');
      expect(message, url).toMatch(/RENDER_WEBHOOK_ALLOW_LOOPBACK cannot open it/);
    }
  });

  it('loopback without the opt-in suggests it; a private address does not', async () => {
    expect(await refusal('http://localhost./x', false)).toContain('set RENDER_WEBHOOK_ALLOW_LOOPBACK=true');
    expect(await refusal('http://127.1.2.3/x', false)).toContain('set RENDER_WEBHOOK_ALLOW_LOOPBACK=true');
    expect(await refusal('http://10.0.0.1/x', true)).toMatch(/Use a public http\(s\) address\.$/);
  });
});
