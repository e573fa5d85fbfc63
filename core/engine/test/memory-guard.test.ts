import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import type { BrowserSession, LaunchOptions } from '../src/browser/launch-browser.js';
import { createBrowserPool } from '../src/pool/browser-pool.js';
import { guardBrowserMemory, type MemoryExceeded } from '../src/pool/memory-guard.js';
import { processTree } from '../src/system/pin-to-cpu.js';
import { createTreeMemory } from '../src/system/tree-memory.js';
import { hostilePage, type HostileKind } from './hostile-memory-pages.js';
import { servePages } from './serve-pages.js';
import { until } from './until.js';

// Small bounds so the tests end fast on a shared machine; the pages stop by themselves at 1.5 GB.
const MAX_MB = 600;
const HEAP_MB = 300;
/** Where the hostile pages stop growing by themselves (hostile-memory-pages.ts). */
const PAGE_CAP_MB = 1500;

let browser: BrowserInfo;
let pages: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  browser = await findBrowser();
  pages = await servePages({
    '/heap.html': hostilePage('heap'),
    '/array-buffers.html': hostilePage('array-buffers'),
    '/tame.html': '<!doctype html><p>tame</p>',
  });
});
afterAll(async () => pages.close());

const options = (): LaunchOptions => ({ browser, mode: 'screenshot', width: 64, height: 36 });

const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * The processes still running after up to 30 s: one that held 600 MB takes a moment to give it
 * back, a long one on a busy machine (it returns as soon as they are gone).
 */
async function stillRunning(pids: readonly number[]): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(alive);
}

async function open(session: BrowserSession, path: string): Promise<void> {
  const page = await (session.context ?? session.browser).newPage();
  // Not awaited to the end: the hostile page may be killed while it loads.
  page.goto(pages.url(path)).catch(() => undefined);
}

/**
 * Opens a hostile page in a guarded browser and waits for the guard to stop it. Returns what the
 * guard reported, the seconds from the first reading over the bound (by this test's own reading,
 * every 100 ms) to the guard's stop, and every process the browser had.
 */
async function provoke(kind: HostileKind, pool?: ReturnType<typeof createBrowserPool>) {
  let exceeded: (MemoryExceeded & { at: number }) | undefined;
  let session: BrowserSession | undefined;
  const guard = guardBrowserMemory({
    maxBytes: MAX_MB * 2 ** 20,
    jsHeapLimitMB: HEAP_MB,
    onExceeded: (usage) => {
      exceeded = { ...usage, at: Date.now() };
      // What a render does when it is stopped: it closes its browsers (politely). The guard's kill must win.
      void session?.close();
    },
  });
  session = await guard.source(pool).acquire(options());
  const root = session.browser.process()!.pid!;
  const seen = new Set<number>();
  const tree = createTreeMemory();
  let overAt: number | undefined;
  const watch = setInterval(() => {
    for (const pid of processTree(root)) seen.add(pid);
    if (overAt === undefined && tree.read([root]).get(root)! > MAX_MB * 2 ** 20) overAt = Date.now();
  }, 100);
  try {
    await open(session, `/${kind}.html`);
    await until(() => exceeded !== undefined, 'the guard to stop the page', 30_000);
    await guard.stop();
  } finally {
    clearInterval(watch);
    tree.close();
  }
  return {
    exceeded: exceeded!,
    lagSeconds: overAt === undefined ? 0 : (exceeded!.at - overAt) / 1000,
    processes: [...seen],
    session: session!,
    guard,
  };
}

describe('guardBrowserMemory', () => {
  it("stops a page whose JavaScript heap grows at V8's heap limit, and kills its browser", { timeout: 90_000 }, async () => {
    const { exceeded, processes } = await provoke('heap');
    expect(exceeded).toMatchObject({ kind: 'js-heap', jsHeapLimitMB: HEAP_MB, maxBytes: MAX_MB * 2 ** 20 });
    expect(processes.length).toBeGreaterThan(1);
    // Killed, not closed politely: every process is gone within moments.
    expect(await stillRunning(processes)).toEqual([]);
  });

  it('stops a page filling ArrayBuffers (outside the heap) before it has grown to its own cap, and the memory is released', {
    timeout: 90_000,
  }, async () => {
    const { exceeded, lagSeconds, processes, guard } = await provoke('array-buffers');
    expect(exceeded.kind).toBe('rss');
    expect(exceeded.usedBytes).toBeGreaterThan(MAX_MB * 2 ** 20);
    // Stopped while the page was still growing (it stops by itself at 1.5 GB): the guard's own
    // reading, not a clock, shows it (~0.4 GB/s of growth and a reading every 250 ms: a reading
    // or two past the bound on a quiet machine; the log below says how long by this test's watch).
    expect(exceeded.usedBytes).toBeLessThan(PAGE_CAP_MB * 2 ** 20);
    expect(guard.peakBytes()).toBe(exceeded.usedBytes);
    expect(await stillRunning(processes)).toEqual([]);
    console.log(
      `array-buffers: stopped at ${Math.round(exceeded.usedBytes / 2 ** 20)} MB, ${lagSeconds.toFixed(2)} s after this test first read more than ${MAX_MB} MB`,
    );
  });

  it('in a warm pool: the offending browser is retired, a lease beside it in another browser carries on, and the pool serves the next render', {
    timeout: 120_000,
  }, async () => {
    const pool = createBrowserPool({ maxBrowsers: 2 });
    try {
      // A neighbour render's lease, under its own guard, in the pool's other browser.
      const neighbourGuard = guardBrowserMemory({ maxBytes: MAX_MB * 2 ** 20, jsHeapLimitMB: HEAP_MB, onExceeded: () => undefined });
      const neighbour = await neighbourGuard.source(pool).acquire(options());
      const neighbourPage = await neighbour.context!.newPage();
      await neighbourPage.goto(pages.url('/tame.html'));

      const { session, processes } = await provoke('array-buffers', pool);
      expect(session.browser).not.toBe(neighbour.browser);
      expect(await stillRunning(processes)).toEqual([]);
      expect(pool.stats()).toMatchObject({ replaced: 1, browsers: 1, leased: 1 });
      expect(await neighbourPage.evaluate(() => document.body.textContent)).toBe('tame');
      await neighbour.close();
      await neighbourGuard.stop();

      // The next render gets the surviving warm browser (same heap limit, same key).
      const next = await guardBrowserMemory({ maxBytes: MAX_MB * 2 ** 20, jsHeapLimitMB: HEAP_MB, onExceeded: () => undefined })
        .source(pool)
        .acquire(options());
      expect(next.browser).toBe(neighbour.browser);
      await next.close();
    } finally {
      await pool.close();
    }
  });

  it('puts the heap limit on the command line, and a warm browser serves only renders with the same limit', {
    timeout: 60_000,
  }, async () => {
    const pool = createBrowserPool({ maxBrowsers: 2 });
    try {
      const quiet = { maxBytes: MAX_MB * 2 ** 20, onExceeded: () => undefined };
      const first = await guardBrowserMemory({ ...quiet, jsHeapLimitMB: HEAP_MB })
        .source(pool)
        .acquire(options());
      expect(first.browser.process()!.spawnargs).toContain(`--js-flags=--max-old-space-size=${HEAP_MB}`);
      await first.close();
      const other = await guardBrowserMemory({ ...quiet, jsHeapLimitMB: 512 })
        .source(pool)
        .acquire(options());
      expect(other.browser).not.toBe(first.browser);
      expect(other.browser.process()!.spawnargs).toContain('--js-flags=--max-old-space-size=512');
      await other.close();
      const same = await guardBrowserMemory({ ...quiet, jsHeapLimitMB: HEAP_MB })
        .source(pool)
        .acquire(options());
      expect(same.browser).toBe(first.browser);
      await same.close();
    } finally {
      await pool.close();
    }
  });
});
