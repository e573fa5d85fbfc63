import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { createProject } from '../src/init/create-project.js';

const gsapFile = createRequire(import.meta.url).resolve('gsap/dist/gsap.min.js');

interface PageState {
  title: string;
  theme: string;
  accent: string;
  subtitleShown: boolean;
  bars: number;
  timeline: { paused: boolean; duration: number } | null;
  errors: string[];
}

// The page a user gets from `seekframe init`, in real Chromium: it must run without errors,
// register a paused timeline that fits the 4 s duration, and show every variable.
describe('starter composition in Chromium', () => {
  let dir: string;
  let server: Server;
  let baseUrl: string;
  let session: BrowserSession;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-starter-'));
    const { dir: project } = await createProject({ name: 'starter', parentDir: dir });
    server = createServer((req, res) => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = path.join(project, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
      if (!file.startsWith(project)) return void res.writeHead(403).end();
      res.setHeader('content-type', file.endsWith('.html') ? 'text/html' : 'application/octet-stream');
      createReadStream(file)
        .on('error', () => res.writeHead(404).end())
        .pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1280, height: 720 });
  });

  afterAll(async () => {
    await session?.close();
    await new Promise((resolve) => server?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function load(variables: Record<string, unknown>): Promise<PageState> {
    const page = await session.browser.newPage();
    try {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error instanceof Error ? error.message : String(error)));
      // The page takes GSAP from node_modules/ (the project's own dependency, not installed in
      // this temp folder); the renderer answers that path from the installed package, as here.
      const gsap = await readFile(gsapFile, 'utf8');
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (request.url() === `${baseUrl}node_modules/gsap/dist/gsap.min.js`)
          void request.respond({ status: 200, contentType: 'text/javascript', body: gsap });
        else if (request.url().startsWith(baseUrl)) void request.continue();
        else void request.abort();
      });
      // Stand-in for the runtime's getVariables(): only the values under test.
      await page.evaluateOnNewDocument((values) => {
        (window as unknown as { __seekframe: unknown }).__seekframe = { getVariables: () => values };
      }, variables);
      await page.goto(baseUrl, { waitUntil: 'load' });
      const state = await page.evaluate(() => {
        const timelines = (window as unknown as { __timelines?: Record<string, { paused(): boolean; duration(): number }> }).__timelines;
        const tl = timelines?.main;
        const stage = document.querySelector<HTMLElement>('.stage')!;
        return {
          title: document.querySelector('.title')!.textContent ?? '',
          theme: stage.dataset.theme ?? '',
          accent: getComputedStyle(document.querySelector('.bar')!).backgroundColor,
          subtitleShown: getComputedStyle(document.querySelector('.subtitle')!).display !== 'none',
          bars: document.querySelectorAll('.bar').length,
          timeline: tl ? { paused: tl.paused(), duration: tl.duration() } : null,
        };
      });
      return { ...state, errors };
    } finally {
      await page.close();
    }
  }

  it('runs with the declared defaults', async () => {
    const state = await load({});
    expect(state.errors).toEqual([]);
    expect(state).toMatchObject({ title: 'Hello from starter', theme: 'dark', accent: 'rgb(255, 90, 54)', subtitleShown: true, bars: 5 });
    expect(state.timeline?.paused).toBe(true);
    expect(state.timeline?.duration).toBeGreaterThan(2);
    expect(state.timeline?.duration).toBeLessThanOrEqual(4);
  });

  it('shows every variable type: string, number, color, boolean and enum', async () => {
    const state = await load({ title: 'Launch day', barCount: 8, accentColor: '#22aa88', showSubtitle: false, theme: 'light' });
    expect(state.errors).toEqual([]);
    expect(state).toMatchObject({ title: 'Launch day', bars: 8, accent: 'rgb(34, 170, 136)', subtitleShown: false, theme: 'light' });
  });
});
