import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import type { CaptureMode } from '../src/browser/browser-flags.js';
import { openFrameChannelCount } from '../src/capture/frame-receiver.js';
import { createBrowserPool } from '../src/pool/browser-pool.js';
import { renderFramePool } from '../src/pool/render-frame-pool.js';
import { colourPage, servePages } from './serve-pages.js';
import { until } from './until.js';

// What `seekframe serve` does all day: renders in a warm browser pool, each under a signal made
// with AbortSignal.any (the client's cancel and the render's own limits), each ending with its
// workers' contexts closed. Nothing of a finished render's pages may stay in the server's memory.
// Found by bench/soak.ts: every render left its capture pages alive (a watch listener on the
// signal, which Node keeps while it has listeners, and one on the browser) and its frame channel
// open; the pool's idle timer also kept the last lease's page until the browser closed.

let server: Awaited<ReturnType<typeof servePages>>;
let browser: BrowserInfo;

beforeAll(async () => {
  browser = await findBrowser();
  server = await servePages({ '/colour.html': colourPage() });
});
afterAll(async () => server.close());

describe('a finished render holds nothing of its pages', () => {
  it.each<CaptureMode>(['beginframe', 'canvas'])(
    '%s: every capture page of 3 renders in a warm pool is garbage-collected, and no frame channel stays open',
    async (mode) => {
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as (options?: { type: 'major'; execution: 'async' }) => void;
      let collected = 0;
      const registry = new FinalizationRegistry(() => collected++);
      const RENDERS = 3;
      const pool = createBrowserPool({ maxBrowsers: 1 });
      try {
        for (let i = 0; i < RENDERS; i++) {
          const cancel = new AbortController();
          const frames: number[] = [];
          await renderFramePool({
            browser,
            workers: 1,
            mode,
            page: {
              url: server.url('/colour.html'),
              width: 64,
              height: 36,
              imageFormat: 'png',
              transparent: false,
              readyTimeoutMs: 10_000,
            },
            times: [0, 0.1, 0.2, 0.3],
            batchSize: 2,
            browserPool: pool,
            signal: AbortSignal.any([cancel.signal]),
            preparePage: async (page) => void registry.register(page.page, 'page'),
            onFrame: (index) => void frames.push(index),
          });
          expect(frames).toEqual([0, 1, 2, 3]);
        }
        expect(await openFrameChannelCount()).toBe(0);
        // The pool's browser is still running (as in a server): the pages must go all the same.
        await until(() => {
          // Without the test's own stack frames as roots (they may still point at the last page).
          gc({ type: 'major', execution: 'async' });
          return collected === RENDERS;
        }, `the ${RENDERS} renders' capture pages to be garbage-collected (${collected} so far)`);
        // Kept reachable to here: a registry that is itself collected calls back nothing.
        registry.unregister(pool);
      } finally {
        await pool.close();
      }
    },
  );
});
