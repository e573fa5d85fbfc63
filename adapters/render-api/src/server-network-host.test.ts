import { describe, expect, it } from 'vitest';
import { workerWebhookUrlCheck } from './server-network-host.js';

describe('workerWebhookUrlCheck (a Worker judges the URL alone; no DNS, no traffic)', () => {
  it('refuses loopback, private, link-local and localhost hosts; the opt-in opens loopback only', async () => {
    const strict = workerWebhookUrlCheck();
    const local = workerWebhookUrlCheck({ allowLoopback: true });
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]/x', 'http://api.localhost/x']) {
      await expect(strict(url), url).rejects.toThrow(/loopback\/private\/link-local/);
      await expect(local(url), url).resolves.toBeUndefined();
    }
    for (const url of ['http://10.0.0.1/x', 'http://172.16.5.5/x', 'http://192.168.0.1/x', 'http://169.254.169.254/x', 'http://100.64.0.1/x', 'http://[fe80::1]/x', 'http://[fd12::1]/x', 'http://0.0.0.0/x']) {
      await expect(local(url), url).rejects.toThrow(/loopback\/private\/link-local/);
    }
    await expect(strict('https://hooks.example.com/seekframe')).resolves.toBeUndefined();
  });
});
