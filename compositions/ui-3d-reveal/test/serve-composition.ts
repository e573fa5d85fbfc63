// Test helpers: serve the composition over real HTTP on 127.0.0.1 and open it in real Chromium.
// The composition takes GSAP from npm (`node_modules/gsap/...`): npm installs it at this
// repository's root, where the renderer finds it too. An optional variable map is exposed through
// a minimal `window.__seekframe` injected first in <head>.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const COMPOSITION_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
const REPO_ROOT = resolve(COMPOSITION_DIR, '../..');
const NODE_MODULES = join(REPO_ROOT, 'node_modules');
const TYPES: Record<string, string> = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript' };

export interface CompositionServer {
  url(variables?: Record<string, unknown>): string;
  close(): Promise<void>;
}

export async function serveComposition(): Promise<CompositionServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const npm = url.pathname.startsWith('/node_modules/');
      const file = normalize(
        npm ? join(REPO_ROOT, url.pathname) : join(COMPOSITION_DIR, url.pathname === '/' ? 'index.html' : url.pathname),
      );
      if (!file.startsWith(npm ? NODE_MODULES : COMPOSITION_DIR)) {
        res.writeHead(403).end();
        return;
      }
      let body: Buffer | string = await readFile(file);
      if (file.endsWith('.html')) {
        const vars = url.searchParams.get('vars');
        const inject = vars === null ? '' : `<script>window.__seekframe = { getVariables: () => (${vars}) };</script>`;
        body = body.toString('utf8').replace(/<head[^>]*>/, (m) => m + inject);
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    })().catch(() => res.writeHead(404).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no port');
  return {
    url: (variables) => `http://127.0.0.1:${address.port}/` + (variables ? `?vars=${encodeURIComponent(JSON.stringify(variables))}` : ''),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchTestBrowser(): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'ui-3d-reveal-test-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.SEEKFRAME_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${userDataDir}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** Page errors, console errors and failed requests seen since the page opened. */
  errors: string[];
}

/** Opens the composition at 1920x1080 (device scale 0.25 keeps screenshots cheap). */
export async function openComposition(
  browser: Browser,
  server: CompositionServer,
  variables?: Record<string, unknown>,
): Promise<OpenedPage> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') errors.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()}`));
  await page.setViewport({ width: 1920, height: 1080, deviceScaleFactor: 0.25 });
  await page.goto(server.url(variables), { waitUntil: 'load' });
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  return { page, errors };
}

/** Seeks the registered timeline; returns nothing (the timeline object is not serialisable). */
export async function seek(page: Page, t: number): Promise<void> {
  await page.evaluate((time) => {
    const tl = (window as unknown as { __timelines: Record<string, { seek(t: number): unknown }> }).__timelines['ui-3d-reveal'];
    tl?.seek(time);
  }, t);
}
