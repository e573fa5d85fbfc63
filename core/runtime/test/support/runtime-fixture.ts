import type { Page } from 'puppeteer-core';
import { bundleRuntime } from '../../scripts/bundle.mjs';
import type { InjectedConfig } from '../../src/injected-config.js';
import { launchTestBrowser, type TestBrowser } from './browser.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface RuntimeFixture {
  server: FixtureServer;
  browser: TestBrowser;
  close(): Promise<void>;
}

/** Fixture config: duration etc. come from query params so each test page can pick its own. */
export function configFromQuery(_pathname: string, q: URLSearchParams): InjectedConfig {
  return {
    mode: q.get('mode') === 'preview' ? 'preview' : 'render',
    composition: {
      id: q.get('id') ?? 'main',
      width: 160,
      height: 90,
      duration: Number(q.get('duration') ?? 4),
    },
    ...(q.get('vars') ? { variables: JSON.parse(q.get('vars') as string) as Record<string, unknown> } : {}),
    seed: Number(q.get('seed') ?? 42),
    fps: 30,
    epochMs: 1_700_000_000_000,
  };
}

/** Bundles the runtime from source, starts the fixture server and a browser. */
export async function startRuntimeFixture(
  configFor: (pathname: string, q: URLSearchParams) => InjectedConfig = configFromQuery,
): Promise<RuntimeFixture> {
  const runtimeSource = (await bundleRuntime({ write: false })) as string;
  const server = await startFixtureServer({ runtimeSource, configFor });
  const browser = await launchTestBrowser();
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Opens `path` on the fixture server in a new tab and waits for the runtime to be ready. */
export async function openReady(fx: RuntimeFixture, path: string): Promise<Page> {
  const page = await fx.browser.newPage();
  await page.goto(`${fx.server.url}${path}`);
  await page.evaluate(() => window.__seekframe!.ready);
  return page;
}
