import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckedLookup, fetchPublic, type ResolvedAddress } from './fetch-public.js';
import { AddressRefusedError } from './private-address.js';

/** Runs a lookup function the way a socket does and reports what it handed back. */
function runLookup(
  lookup: LookupFunction,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
): Promise<{ error: Error | null; address: unknown; family?: number }> {
  return new Promise((resolve) => {
    (lookup as (h: string, o: object, cb: (e: Error | null, a: unknown, f?: number) => void) => void)(
      hostname,
      options,
      (error, address, family) => resolve({ error, address, ...(family === undefined ? {} : { family }) }),
    );
  });
}

/** A resolver stub that counts its calls and answers from a table; no DNS is ever asked. */
function stubResolver(answers: Record<string, ResolvedAddress[]>): {
  resolver: (host: string) => Promise<ResolvedAddress[]>;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    resolver: async (host) => {
      calls.push(host);
      const answer = answers[host];
      if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return answer;
    },
  };
}

describe('createCheckedLookup', () => {
  it('refuses a name that resolves to loopback before any socket exists', async () => {
    const { resolver, calls } = stubResolver({ 'evil.test': [{ address: '127.0.0.1', family: 4 }] });
    const result = await runLookup(createCheckedLookup(resolver), 'evil.test', { all: true });
    expect(result.error).toBeInstanceOf(AddressRefusedError);
    expect(result.error?.message).toMatch(/evil\.test resolves to 127\.0\.0\.1/);
    expect(calls).toEqual(['evil.test']);
  });

  it('refuses the whole name when any answer is private (one public record beside a metadata address)', async () => {
    const { resolver } = stubResolver({
      'mixed.test': [
        { address: '8.8.8.8', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
    });
    const result = await runLookup(createCheckedLookup(resolver), 'mixed.test');
    expect(result.error?.message).toMatch(/resolves to 169\.254\.169\.254/);
  });

  it('hands the socket exactly the addresses it checked, from one resolution', async () => {
    const { resolver, calls } = stubResolver({
      'cdn.test': [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '8.8.8.8', family: 4 },
      ],
    });
    const lookup = createCheckedLookup(resolver);
    expect(await runLookup(lookup, 'cdn.test', { all: true })).toEqual({
      error: null,
      address: [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '8.8.8.8', family: 4 },
      ],
    });
    expect(await runLookup(lookup, 'cdn.test', { family: 4 })).toEqual({ error: null, address: '8.8.8.8', family: 4 });
    expect(calls).toEqual(['cdn.test', 'cdn.test']); // once per connection, never a second time for the same one
  });
});

describe('fetchPublic', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.headers.host} ${req.url}`);
      if (req.url === '/hop') res.writeHead(302, { location: `http://other.test:${port}/final` }).end();
      else if (req.url === '/to-literal') res.writeHead(302, { location: `http://127.0.0.1:${port}/final` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer for ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  // isBlocked: () => false lets the loopback test server count as "public", so the test watches
  // which address the connection really goes to with no traffic beyond 127.0.0.1.
  it('connects to the address the lookup checked: a name only the stub knows reaches it, resolved once per hop', async () => {
    hits.length = 0;
    const { resolver, calls } = stubResolver({
      'site.test': [{ address: '127.0.0.1', family: 4 }],
      'other.test': [{ address: '127.0.0.1', family: 4 }],
    });
    const response = await fetchPublic(`http://site.test:${port}/hop`, {
      signal: AbortSignal.timeout(10_000),
      resolver,
      isBlocked: () => false,
    });
    expect(await response.text()).toBe('answer for /final');
    expect(response.url).toBe(`http://other.test:${port}/final`);
    expect(hits).toEqual([`site.test:${port} /hop`, `other.test:${port} /final`]);
    expect(calls).toEqual(['site.test', 'other.test']);
  });

  it('a redirect hop to a refused address fails before connecting to it', async () => {
    hits.length = 0;
    const { resolver } = stubResolver({
      'site.test': [{ address: '127.0.0.1', family: 4 }],
      'other.test': [{ address: '127.0.0.2', family: 4 }],
    });
    // site.test is allowed (the test server); the redirect names other.test -> 127.0.0.2, refused.
    const isBlocked = (address: string): boolean => address === '127.0.0.2';
    await expect(fetchPublic(`http://site.test:${port}/hop`, { signal: AbortSignal.timeout(10_000), resolver, isBlocked })).rejects.toThrow(
      /other\.test resolves to 127\.0\.0\.2/,
    );
    expect(hits).toEqual([`site.test:${port} /hop`]);
  });

  it('a redirect to an IP literal is checked too', async () => {
    hits.length = 0;
    const { resolver } = stubResolver({ 'site.test': [{ address: '127.0.0.1', family: 4 }] });
    // Only the literal 127.0.0.1 in the Location is refused; site.test's own answer is accepted.
    const isBlocked = (address: string): boolean => address === '127.0.0.1' && hits.length > 0;
    await expect(
      fetchPublic(`http://site.test:${port}/to-literal`, { signal: AbortSignal.timeout(10_000), resolver, isBlocked }),
    ).rejects.toThrow(/127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    expect(hits).toEqual([`site.test:${port} /to-literal`]);
  });

  it('with the real policy, a stub answer of loopback is refused and the server sees nothing', async () => {
    hits.length = 0;
    const { resolver } = stubResolver({ 'rebind.test': [{ address: '127.0.0.1', family: 4 }] });
    await expect(fetchPublic(`http://rebind.test:${port}/x`, { signal: AbortSignal.timeout(10_000), resolver })).rejects.toThrow(
      /rebind\.test resolves to 127\.0\.0\.1/,
    );
    await expect(fetchPublic(`http://127.0.0.1:${port}/x`, { signal: AbortSignal.timeout(10_000), resolver })).rejects.toThrow(
      /127\.0\.0\.1 resolves to 127\.0\.0\.1/,
    );
    expect(hits).toEqual([]);
  });
});

describe('createCheckedLookup: localhost names', () => {
  it('answers localhost, localhost. and *.localhost as loopback (refused) without asking the resolver', async () => {
    const { resolver, calls } = stubResolver({});
    for (const name of ['localhost', 'localhost.', 'x.localhost', 'y.x.LOCALHOST.']) {
      const result = await runLookup(createCheckedLookup(resolver), name, { all: true });
      expect(result.error, name).toBeInstanceOf(AddressRefusedError);
      expect(result.error?.message, name).toMatch(/resolves to 127\.0\.0\.1/);
    }
    expect(calls).toEqual([]);
  });
});
