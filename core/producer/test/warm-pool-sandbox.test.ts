import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserPool, findBrowser, type BrowserInfo, type LaunchOptions } from '@seekframe/engine';
import { startNetworkSandbox } from '../src/network/network-sandbox.js';

/**
 * The warm pool's context opened ahead, with the real network sandbox: two sandboxed renders in a
 * row on one browser, each with its own project server. The second one's context was opened
 * while the first rendered, behind a relay; it must reach its own project and nothing else: not
 * the first render's project (which the first render's sandbox would have let through), not a
 * secret loopback server.
 */
let browser: BrowserInfo;
const servers: Server[] = [];
const seen = new Map<string, string[]>();

async function loopbackServer(name: string): Promise<string> {
  seen.set(name, []);
  const server = createServer((req, res) => {
    seen.get(name)!.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${name}</title>`);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  browser = await findBrowser();
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('warm pool + network sandbox', () => {
  it("a sandboxed render's context opened ahead reaches only its own project server", async () => {
    const [projectA, projectB, secret] = [await loopbackServer('a'), await loopbackServer('b'), await loopbackServer('secret')];
    const sandboxA = await startNetworkSandbox(projectA);
    const sandboxB = await startNetworkSandbox(projectB);
    const launch = (args: string[]): LaunchOptions => ({
      browser: { ...browser, extraArgs: args },
      mode: 'beginframe',
      width: 64,
      height: 36,
    });
    const pool = createBrowserPool({ maxBrowsers: 1 });
    try {
      const first = await pool.acquire(launch(sandboxA.args));
      const pageA = first.takeOpenedPage?.()?.page ?? (await first.context!.newPage());
      await pageA.goto(`${projectA}/a.html`);
      expect(seen.get('a')).toContain('/a.html');
      await first.close();

      const second = await pool.acquire(launch(sandboxB.args));
      expect(pool.stats()).toMatchObject({ launched: 1, reused: 1, openedAhead: 1 });
      const opened = second.takeOpenedPage?.();
      expect(opened).toBeDefined();
      const page = opened!.page;
      await page.goto(`${projectB}/b.html`);
      expect(await page.title()).toBe('b');
      const reach = (url: string): Promise<string> =>
        page.evaluate(
          async (target) =>
            fetch(target).then(
              (r) => `reached ${r.status}`,
              () => 'blocked',
            ),
          url,
        );
      expect(await reach(`${projectB}/asset`)).toBe('reached 200');
      expect(await reach(`${projectA}/from-b`)).toBe('blocked');
      expect(await reach(`${secret}/from-b`)).toBe('blocked');
      expect(seen.get('a')).not.toContain('/from-b');
      expect(seen.get('secret')).toEqual([]);
      await second.close();
    } finally {
      await pool.close();
      await sandboxA.close();
      await sandboxB.close();
    }
  });
});
