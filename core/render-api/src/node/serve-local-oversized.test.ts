import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCli } from '../contract-suite/checkout-cli.js';
import { rawGet } from '../contract-suite/contract-http.js';
import { contractCompositionDir } from './contract-composition.js';
import { serveLocal, type LocalRenderApi } from './serve-local.js';

/**
 * A 70 KB URL and 64 KiB of headers, refused by Node's HTTP parser before any route runs: the
 * client gets 414/431 in the JSON error shape (with x-request-id), not a reset connection.
 */
let api: LocalRenderApi;
beforeAll(async () => {
  api = await serveLocal({ compositionDir: contractCompositionDir(), runner: { cli: checkoutCli() } });
});
afterAll(async () => api?.close());

describe('serveLocal: oversized requests', () => {
  const cases = [
    { what: 'a 70 KB URL', route: `/api/render/${'a'.repeat(70_000)}`, headers: {}, status: 414, code: 'url-too-long' },
    { what: 'a 20 KB query', route: `/api/composition?${'q'.repeat(20_000)}`, headers: {}, status: 414, code: 'url-too-long' },
    {
      what: 'a 64 KiB header',
      route: '/api/composition',
      headers: { 'x-big': 'b'.repeat(64 * 1024) },
      status: 431,
      code: 'headers-too-large',
    },
    {
      what: '200 headers of 300 bytes',
      route: '/api/composition',
      headers: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h${i}`, 'c'.repeat(300)])),
      status: 431,
      code: 'headers-too-large',
    },
  ];
  it.each(cases)('$what: $status $code as JSON', async ({ route, headers, status, code }) => {
    const answer = await rawGet(api.url, route, headers as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String), retryable: false } });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('fetch (undici) reads the answer too, and the server keeps serving', async () => {
    const answer = await fetch(`${api.url}/api/render/${'a'.repeat(70_000)}`);
    expect(answer.status).toBe(414);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('url-too-long');
    expect((await fetch(`${api.url}/api/composition`)).status).toBe(200);
  });
});
