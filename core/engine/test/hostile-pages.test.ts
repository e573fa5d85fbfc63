import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { launchBrowser, type BrowserSession } from '../src/browser/launch-browser.js';
import { openCapturePage } from '../src/capture/capture-page.js';
import { renderFramePool } from '../src/pool/render-frame-pool.js';
import { processTree } from '../src/system/pin-to-cpu.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { colourPage, servePages } from './serve-pages.js';
import { until } from './until.js';

// Pages that block their main thread, open dialogs, or lose their renderer. Every wait must end
// by a Node-side timer or event, the browser must be gone afterwards, and the error must say why.
const W = 64;
const H = 36;
const spinInSeek = colourPage().replace('seek(t) {', 'seek(t) { if (t > 0.2) { while (true) {} }');
const hangInSeek = colourPage().replace('seek(t) {', 'seek(t) { if (t > 0.2) return new Promise(() => {});');
let server: Awaited<ReturnType<typeof servePages>>;
let browser: BrowserInfo;

beforeAll(async () => {
  browser = await findBrowser();
  server = await servePages({
    '/spin-inline.html': colourPage().replace('</body>', '<script>while (true) {}</script></body>'),
    '/spin-after-load.html': colourPage().replace(
      '</body>',
      '<script>addEventListener("load", () => setTimeout(() => { while (true) {} }, 0))</script></body>',
    ),
    '/spin-in-seek.html': spinInSeek,
    '/hang-in-seek.html': hangInSeek,
    '/alert-in-seek.html': colourPage().replace('seek(t) {', 'seek(t) { if (t > 0.2) alert("hello " + t);'),
    '/confirm-at-load.html': colourPage().replace('</body>', '<script>confirm("really?")</script></body>'),
    '/colour.html': colourPage(),
    // Their load never ends: /hang.png never answers (one URL per mode, to see each one asked).
    '/loading-forever-beginframe.html': colourPage().replace('</body>', '<img src="/hang.png?beginframe"></body>'),
    '/loading-forever-screenshot.html': colourPage().replace('</body>', '<img src="/hang.png?screenshot"></body>'),
  });
});
afterAll(async () => server.close());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is dead: only its exit status is left for its parent to read.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function renderers(browserPid: number): number[] {
  return processTree(browserPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

async function expectGone(pids: number[]): Promise<void> {
  // close()/kill() resolve after the browser process exited; its children exit with it.
  // A bound for a machine that barely runs the test; it returns as soon as they are gone.
  const goneBy = Date.now() + 30_000;
  while (pids.some(alive) && Date.now() < goneBy) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(pids.filter(alive)).toEqual([]);
}

describe.each(['beginframe', 'screenshot'] as const)('hostile pages in %s mode', (mode) => {
  const open = async (path: string, session: BrowserSession, extra: { seekTimeoutMs?: number; readyTimeoutMs?: number } = {}) =>
    openCapturePage(session, {
      url: server.url(path),
      width: W,
      height: H,
      mode,
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 3_000,
      seekTimeoutMs: 3_000,
      ...extra,
    });

  it.each(['/spin-inline.html', '/spin-after-load.html'])(
    '%s: while(true) at load fails with page-unresponsive and kills the browser',
    { timeout: 60_000 },
    async (path) => {
      const session = await launchBrowser({ browser, mode, width: W, height: H });
      const tree = processTree(session.browser.process()!.pid!);
      try {
        await expect(open(path, session)).rejects.toMatchObject({
          code: 'page-unresponsive',
          message: expect.stringMatching(/stopped responding while (loading|getting ready)/),
        });
        await expectGone(tree);
      } finally {
        await session.close();
      }
    },
  );

  it('while(true) in a seek fails with page-unresponsive naming the frame, and kills the browser', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      const page = await open('/spin-in-seek.html', session);
      await page.seekAndCapture(0.1, 1);
      const tree = processTree(session.browser.process()!.pid!);
      await expect(page.seekAndCapture(0.3, 3)).rejects.toMatchObject({
        code: 'page-unresponsive',
        message: expect.stringContaining('at frame 3 (t=0.3s)'),
        details: { frame: 3 },
      });
      await expectGone(tree);
    } finally {
      await session.close();
    }
  });

  it('a seek that only waits (main thread free) stays a seek-timeout, and the browser lives on', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      const page = await open('/hang-in-seek.html', session);
      await expect(page.seekAndCapture(0.3, 3)).rejects.toMatchObject({ code: 'seek-timeout' });
      expect(session.browser.connected).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('alert() in a seek is dismissed and fails the frame with page-dialog naming the text', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      const page = await open('/alert-in-seek.html', session, { seekTimeoutMs: 20_000 });
      await expect(page.seekAndCapture(0.3, 3)).rejects.toMatchObject({
        code: 'page-dialog',
        message: expect.stringContaining('alert("hello 0.3") at frame 3'),
      });
    } finally {
      await session.close();
    }
  });

  it('confirm() at load fails the load with page-dialog', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      await expect(open('/confirm-at-load.html', session, { readyTimeoutMs: 20_000 })).rejects.toMatchObject({
        code: 'page-dialog',
        message: expect.stringContaining('confirm("really?") while loading'),
      });
    } finally {
      await session.close();
    }
  });

  it('a killed renderer fails the waiting seek with browser-crashed at once, not after the seek timeout', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      // The seek would wait 10 minutes: only the crash event can end it within the test's time.
      const page = await open('/hang-in-seek.html', session, { seekTimeoutMs: 600_000 });
      const seeking = page.seekAndCapture(0.3, 3);
      seeking.catch(() => undefined);
      const victims = renderers(session.browser.process()!.pid!);
      expect(victims.length).toBeGreaterThan(0);
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      await expect(seeking).rejects.toMatchObject({ code: 'browser-crashed', message: expect.stringContaining('frame 3') });
    } finally {
      await session.close();
    }
  });

  it('a renderer killed while the page loads fails the load with browser-crashed, not capture-failed', { timeout: 60_000 }, async () => {
    const session = await launchBrowser({ browser, mode, width: W, height: H });
    try {
      const opening = open(`/loading-forever-${mode}.html`, session, { readyTimeoutMs: 600_000 });
      opening.catch(() => undefined);
      await until(() => server.requested(`/hang.png?${mode}`), 'the page to ask for the image that never answers', 60_000);
      const victims = renderers(session.browser.process()!.pid!);
      expect(victims.length).toBeGreaterThan(0);
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      await expect(opening).rejects.toMatchObject({ code: 'browser-crashed', message: expect.stringContaining('while loading') });
    } finally {
      await session.close();
    }
  });

  it('an abort ends a spinning seek at once and leaves no browser process', { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    const pids: number[] = [];
    const pool = renderFramePool({
      browser,
      workers: 1,
      mode,
      page: {
        url: server.url('/spin-in-seek.html'),
        width: W,
        height: H,
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 10_000,
        seekTimeoutMs: 600_000,
      },
      times: [0, 0.1, 0.3, 0.4],
      preparePage: async (page) => void pids.push(...processTree(page.page.browser().process()!.pid!)),
      onFrame: (index) => {
        // Frame 2 (t=0.3) spins forever; cancel once the worker is on it.
        if (index === 1) setTimeout(() => controller.abort(), 500);
      },
      signal: controller.signal,
    });
    await expect(pool).rejects.toMatchObject({ code: 'render-cancelled' });
    await expectGone(pids);
  });
});

it('the pool replaces a worker whose renderer was killed and still delivers every frame', { timeout: 90_000 }, async () => {
  let browserPid = 0;
  const result = await renderFramePool({
    browser,
    workers: 1,
    mode: 'beginframe',
    page: {
      url: server.url('/colour.html'),
      width: W,
      height: H,
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 10_000,
      seekTimeoutMs: 600_000,
    },
    times: Array.from({ length: 6 }, (_, i) => i / 10),
    maxBufferedFrames: 1,
    preparePage: async (page) => {
      browserPid = page.page.browser().process()!.pid!;
    },
    onFrame: (index) => {
      if (index === 2) for (const pid of renderers(browserPid)) process.kill(pid, 'SIGKILL');
    },
  });
  expect(result).toMatchObject({ frames: 6, browserRestarts: 1 });
});
