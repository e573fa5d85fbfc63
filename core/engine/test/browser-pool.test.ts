import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserArgs } from '../src/browser/browser-flags.js';
import { findBrowser } from '../src/browser/find-browser.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { launchBrowser, type BrowserSession, type LaunchOptions } from '../src/browser/launch-browser.js';
import { openCapturePage } from '../src/capture/capture-page.js';
import { createBrowserPool, type BrowserPool } from '../src/pool/browser-pool.js';
import { allowedCpus, pinProcessTree } from '../src/system/pin-to-cpu.js';
import { findOnPath } from '../src/system/find-executable.js';
import { colourPage } from './serve-pages.js';
import { until } from './until.js';

const require = createRequire(import.meta.url);
const FONT = readFileSync(require.resolve('@fontsource/arimo/files/arimo-latin-400-normal.woff2'));

/**
 * What one render could leave behind in a browser: every kind of state the pool promises not to
 * carry over. The second page reads each back; the control test proves the probe does see them
 * when two pages share one profile.
 */
const WRITE_STATE = `
  localStorage.setItem('leak', 'yes');
  document.cookie = 'leak=yes; max-age=3600';
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('leak-db', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => { const tx = open.result.transaction('s', 'readwrite'); tx.objectStore('s').put('yes', 'k'); tx.oncomplete = () => resolve(); };
    open.onerror = () => reject(open.error);
  });
  await (await caches.open('leak-cache')).put('/stored', new Response('yes'));
  await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const face = new FontFace('Leak Font', 'url(/font.woff2)');
  document.fonts.add(await face.load());
  await (await fetch('/cached.txt')).text();
  window.leakedGlobal = 'yes';
  return 'written';
`;
const READ_STATE = `
  const dbs = await indexedDB.databases();
  await (await fetch('/cached.txt')).text();
  return {
    localStorage: localStorage.getItem('leak'),
    cookie: document.cookie,
    indexedDB: dbs.map((db) => db.name),
    cacheStorage: await caches.keys(),
    serviceWorkers: (await navigator.serviceWorker.getRegistrations()).length,
    fonts: [...document.fonts].map((font) => font.family),
    global: window.leakedGlobal ?? null,
  };
`;
const CLEAN = { localStorage: null, cookie: '', indexedDB: [], cacheStorage: [], serviceWorkers: 0, fonts: [], global: null };

let browser: BrowserInfo;
let server: Server;
let origin = '';
const requests = new Map<string, number>();

beforeAll(async () => {
  browser = await findBrowser();
  server = createServer((req, res) => {
    const path = req.url ?? '';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === '/sw.js')
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end("self.addEventListener('fetch', () => {});");
    if (path === '/font.woff2') return void res.writeHead(200, { 'content-type': 'font/woff2', 'cache-control': 'max-age=3600' }).end(FONT);
    // Cacheable for an hour: a second request proves the second page did not get the first one's HTTP cache.
    if (path === '/cached.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' }).end('cached');
    if (path === '/colour.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(colourPage());
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>state</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const launchOptions = (extraArgs: string[] = []): LaunchOptions => ({
  browser: { ...browser, extraArgs },
  mode: 'beginframe',
  width: 64,
  height: 36,
});

async function run(page: Page, body: string): Promise<unknown> {
  await page.goto(`${origin}/state.html`);
  return page.evaluate(`(async () => { ${body} })()`);
}

/** A pool whose launches are counted and whose browsers' pids are recorded. */
function countingPool(options: Parameters<typeof createBrowserPool>[0] = {}): { pool: BrowserPool; pids: number[] } {
  const pids: number[] = [];
  const pool = createBrowserPool({
    ...options,
    launch: async (opts) => {
      const session = await launchBrowser(opts);
      pids.push(session.browser.process()!.pid!);
      return session;
    },
  });
  return { pool, pids };
}

/**
 * A real browser that has stopped answering (SIGSTOP) with a 1 s CDP timeout, so a call on it fails
 * while it is still connected. Its kill and close end the whole process group (puppeteer starts
 * the browser as a group leader) and remove its profile.
 */
async function silentBrowser(opts: LaunchOptions): Promise<BrowserSession> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'seekframe-test-silent-'));
  const silent = await puppeteer.launch({
    executablePath: opts.browser.path,
    headless: opts.browser.kind === 'headless-shell' ? 'shell' : true,
    args: browserArgs(opts),
    userDataDir,
    pipe: true,
    protocolTimeout: 1_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const child = silent.process()!;
  process.kill(child.pid!, 'SIGSTOP');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const end = async (): Promise<void> => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  return { browser: silent, mode: opts.mode, executablePath: opts.browser.path, close: end, kill: end };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('createBrowserPool', () => {
  it("control: two pages in one profile do see each other's state (so the probe below can see a leak)", async () => {
    const session: BrowserSession = await launchBrowser(launchOptions());
    try {
      const first = await session.browser.newPage();
      expect(await run(first, WRITE_STATE)).toBe('written');
      await first.close();
      const before = requests.get('/cached.txt') ?? 0;
      const seen = (await run(await session.browser.newPage(), READ_STATE)) as typeof CLEAN;
      expect(seen.localStorage).toBe('yes');
      expect(seen.cookie).toBe('leak=yes');
      expect(seen.indexedDB).toContain('leak-db');
      expect(seen.cacheStorage).toContain('leak-cache');
      expect(seen.serviceWorkers).toBe(1);
      expect(requests.get('/cached.txt')).toBe(before); // answered from the HTTP cache
    } finally {
      await session.close();
    }
  });

  it('reuses one warm browser, and nothing of one lease is visible to the next', async () => {
    const { pool, pids } = countingPool();
    try {
      const first = await pool.acquire(launchOptions());
      expect(await run(await first.context!.newPage(), WRITE_STATE)).toBe('written');
      await first.close();
      const before = requests.get('/cached.txt') ?? 0;
      const second = await pool.acquire(launchOptions());
      expect(second.browser).toBe(first.browser); // the same running browser
      expect(await run(await second.context!.newPage(), READ_STATE)).toEqual(CLEAN);
      expect(requests.get('/cached.txt')).toBe(before + 1); // fetched again: no shared HTTP cache
      await second.close();
      expect(pids).toHaveLength(1);
      // The second lease got the context opened ahead when the first ended: fresh all the same.
      expect(pool.stats()).toMatchObject({ browsers: 1, idle: 1, leased: 0, launched: 1, reused: 1, replaced: 0, openedAhead: 1 });
    } finally {
      await pool.close();
    }
    expect(alive(pids[0]!)).toBe(false);
  });

  it('captures beginframe frames in a lease, warm or new, in contexts opened ahead beside a running lease', async () => {
    const { pool, pids } = countingPool();
    try {
      for (const t of [0.5, 1, 1.5]) {
        const session = await pool.acquire(launchOptions());
        const page = await openCapturePage(session, {
          url: `${origin}/colour.html`,
          width: 64,
          height: 36,
          mode: 'beginframe',
          imageFormat: 'png',
          transparent: false,
          readyTimeoutMs: 15_000,
        });
        // The warm lease's capture page is the one opened ahead, not a second page.
        expect(await session.context!.pages()).toHaveLength(1);
        const image = PNG.sync.read(await page.seekAndCapture(t));
        expect([image.width, image.height]).toEqual([64, 36]);
        expect(Math.abs(image.data[(10 * 64 + 10) * 4]! - t * 100)).toBeLessThanOrEqual(1);
        await page.close();
        await session.close();
      }
      expect(pids).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ reused: 2, openedAhead: 2 });
    } finally {
      await pool.close();
    }
  });

  it('replaces a browser that crashed while leased or while idle, never reusing it', async () => {
    const { pool, pids } = countingPool();
    try {
      const first = await pool.acquire(launchOptions());
      process.kill(pids[0]!, 'SIGKILL');
      await until(() => !first.browser.connected, 'the killed browser to disconnect');
      await first.close();
      expect(pool.stats()).toMatchObject({ browsers: 0, replaced: 1 });

      const second = await pool.acquire(launchOptions());
      expect(pids).toHaveLength(2);
      await second.close();
      expect(pool.stats()).toMatchObject({ browsers: 1, idle: 1 });
      process.kill(pids[1]!, 'SIGKILL'); // dies while idle
      await until(() => !second.browser.connected, 'the idle browser to disconnect');

      const third = await pool.acquire(launchOptions());
      expect(pids).toHaveLength(3);
      expect(third.browser.connected).toBe(true);
      await third.close();
      expect(pool.stats()).toMatchObject({ browsers: 1, launched: 3, reused: 0, replaced: 2 });
    } finally {
      await pool.close();
    }
  });

  it('fails with browser-crashed, keeping nothing, when a new browser dies before its lease opens a context', async () => {
    const pool = createBrowserPool({
      launch: async (opts) => {
        const session = await launchBrowser(opts);
        session.browser.process()!.kill('SIGKILL');
        await until(() => !session.browser.connected, 'the killed browser to disconnect');
        return session;
      },
    });
    try {
      await expect(pool.acquire(launchOptions())).rejects.toMatchObject({
        code: 'browser-crashed',
        message: expect.stringContaining('before a render could use it'),
      });
      expect(pool.stats()).toMatchObject({ browsers: 0, overflow: 0, launched: 1, replaced: 1 });
    } finally {
      await pool.close();
    }
  });

  it('classifies a failed lease while its browser is still there: a browser that stops answering is not a crash', async () => {
    // Alive and connected, but silent (SIGSTOP): creating the lease's context times out. Classified
    // after the pool killed it, any failure read as browser-crashed ("may have run out of memory").
    const pids: number[] = [];
    const pool = createBrowserPool({
      maxBrowsers: 0, // the overflow path: a new browser whose failure reaches the caller
      launch: async (opts) => {
        const session = await silentBrowser(opts);
        pids.push(session.browser.process()!.pid!);
        return session;
      },
    });
    try {
      await expect(pool.acquire(launchOptions())).rejects.toMatchObject({
        code: 'capture-failed',
        message: expect.stringContaining('Target.createBrowserContext timed out'),
      });
      await until(() => !alive(pids[0]!), 'the silent browser to be killed');
      expect(pool.stats()).toMatchObject({ browsers: 0, overflow: 0, launched: 1 });
    } finally {
      await pool.close();
    }
  });

  it('kills a browser whose lease was killed (a page stopped answering) instead of keeping it', async () => {
    const { pool, pids } = countingPool();
    try {
      const lease = await pool.acquire(launchOptions());
      await lease.kill();
      await until(() => !alive(pids[0]!), "the killed lease's browser to exit");
      expect(pool.stats()).toMatchObject({ browsers: 0, replaced: 1 });
    } finally {
      await pool.close();
    }
  });

  it('closes idle browsers after idleCloseMs', async () => {
    const { pool, pids } = countingPool({ idleCloseMs: 100 });
    try {
      await (await pool.acquire(launchOptions())).close();
      await until(() => pool.stats().browsers === 0, 'the idle browser to close');
      await until(() => !alive(pids[0]!), 'the idle browser process to exit');
      expect(pool.stats().closedIdle).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('keeps at most maxBrowsers: more leases get one-off browsers, closed at release', async () => {
    const { pool, pids } = countingPool({ maxBrowsers: 1 });
    try {
      const [a, b] = await Promise.all([pool.acquire(launchOptions()), pool.acquire(launchOptions())]);
      expect(pool.stats()).toMatchObject({ browsers: 1, leased: 1, overflow: 1 });
      await a.close();
      await b.close();
      expect(pool.stats()).toMatchObject({ browsers: 1, idle: 1, overflow: 0 });
      await until(() => pids.filter(alive).length === 1, 'the one-off browser to exit');
      // A lease of another shape (size) takes the idle browser's place instead of growing the pool.
      const other = await pool.acquire({ ...launchOptions(), width: 80 });
      expect(pool.stats()).toMatchObject({ browsers: 1, leased: 1, overflow: 0 });
      await other.close();
    } finally {
      await pool.close();
    }
  });

  it.runIf(process.platform === 'linux' && allowedCpus().length >= 2)(
    'gives a browser that a multi-worker render pinned to one CPU every CPU back before its next lease',
    async () => {
      expect(await findOnPath('taskset')).toBeTruthy();
      const { pool, pids } = countingPool();
      const cpusOf = (pid: number): number[] => allowedCpus(readFileSync(`/proc/${pid}/status`, 'latin1'));
      try {
        const lease = await pool.acquire(launchOptions());
        await pinProcessTree(pids[0]!, allowedCpus()[0]!);
        expect(cpusOf(pids[0]!)).toHaveLength(1);
        await lease.close();
        expect(cpusOf(pids[0]!)).toEqual(allowedCpus());
      } finally {
        await pool.close();
      }
    },
  );

  it('closes a released browser when the pool is over its memory bound', async () => {
    const { pool, pids } = countingPool({ maxMemoryBytes: 1 });
    try {
      await (await pool.acquire(launchOptions())).close();
      expect(pool.stats().browsers).toBe(0);
      await until(() => !alive(pids[0]!), 'the browser over the memory bound to exit');
    } finally {
      await pool.close();
    }
  });

  it('applies proxy flags per lease, and never hands a sandboxed lease the proxy-less context opened for an open one', async () => {
    const secretSeen: string[] = [];
    const secret = createServer((req, res) => {
      secretSeen.push(req.url ?? '');
      res.end('secret');
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    const refuse = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refuse.listen(0, '127.0.0.1', resolve));
    const secretUrl = `http://127.0.0.1:${(secret.address() as AddressInfo).port}/x`;
    const project = new URL(origin);
    const sandbox = [
      `--proxy-server=http://127.0.0.1:${(refuse.address() as AddressInfo).port}`,
      `--proxy-bypass-list=<-loopback>;${project.hostname}:${project.port}`,
    ];
    const { pool, pids } = countingPool();
    try {
      const open = await pool.acquire(launchOptions());
      await open.close();
      const sandboxed = await pool.acquire(launchOptions(sandbox));
      expect(pids).toHaveLength(1); // sandboxed and open renders share the warm browser
      const page = await sandboxed.context!.newPage();
      await page.goto(`${origin}/state.html`);
      const outcome = await page.evaluate(
        async (url) =>
          fetch(url).then(
            () => 'reached',
            () => 'blocked',
          ),
        secretUrl,
      );
      expect(outcome).toBe('blocked');
      expect(secretSeen).toEqual([]);
      // The open lease's browser had an open (proxy-less) context ready: it was discarded, not used.
      expect(pool.stats()).toMatchObject({ reused: 1, openedAhead: 0 });
      await sandboxed.close();
    } finally {
      await pool.close();
      secret.closeAllConnections();
      await new Promise((resolve) => secret.close(resolve));
      await new Promise((resolve) => refuse.close(resolve));
    }
  });
});
