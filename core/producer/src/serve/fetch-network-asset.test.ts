import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchNetworkAsset } from './fetch-network-asset.js';

// A loopback server (trusted-render mode: publicOnly off) standing in for a remote host.
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = Buffer.alloc(64 * 1024, 7);
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    // Chunked, no Content-Length: only counting the bytes can catch it.
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(body.subarray(0, 32 * 1024));
    res.end(body.subarray(32 * 1024));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('fetchNetworkAsset size cap', () => {
  for (const route of ['/declared', '/chunked']) {
    it(`refuses a body over maxBytes (${route}) with remote-asset-failed naming the cap`, async () => {
      const attempt = fetchNetworkAsset(`${origin}${route}`, { timeoutMs: 5000, maxBytes: 16 * 1024 });
      await expect(attempt).rejects.toMatchObject({
        code: 'remote-asset-failed',
        message: expect.stringContaining('larger than 16384 bytes'),
      });
    });
  }

  it('accepts a body within the cap, byte for byte', async () => {
    const asset = await fetchNetworkAsset(`${origin}/chunked`, { timeoutMs: 5000, maxBytes: 64 * 1024 });
    expect(asset.body.length).toBe(64 * 1024);
    expect(asset.body.every((byte) => byte === 7)).toBe(true);
  });
});
