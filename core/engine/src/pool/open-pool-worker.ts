import type { BrowserInfo } from '../browser/browser-info.js';
import type { CaptureMode } from '../browser/browser-flags.js';
import { openCapturePage, type CapturePage, type CapturePageOptions } from '../capture/capture-page.js';
import { launchBrowser, type BrowserSession } from '../browser/launch-browser.js';
import type { BrowserSource } from './browser-pool.js';

/** A browser with its capture page open and ready. */
export interface PoolWorker {
  session: BrowserSession;
  page: CapturePage;
  /**
   * Ends the worker: lets go of the page's watch and frame channel (CapturePage.dispose), then
   * closes the session (its browser, or its context in a warm pool). Every owner ends a worker
   * this way: closing only the session left the page held for the life of the process.
   */
  close(): Promise<void>;
}

/** The worker for a session and its open page. */
export function poolWorker(session: BrowserSession, page: CapturePage): PoolWorker {
  return {
    session,
    page,
    close: () => {
      page.dispose();
      return session.close();
    },
  };
}

export interface OpenPoolWorkerOptions {
  browser: Pick<BrowserInfo, 'path' | 'kind'>;
  mode: CaptureMode;
  gpu?: boolean;
  /** Everything openCapturePage needs except the mode. */
  page: Omit<CapturePageOptions, 'mode'>;
  /** A warm pool to lease the browser from (a fresh isolated context in a running browser) instead of launching one. */
  pool?: BrowserSource | undefined;
}

/** A worker being opened: `ready` settles when its page is ready; `cancel` stops it at any point. */
export interface WorkerLaunch {
  readonly ready: Promise<PoolWorker>;
  /**
   * Closes the browser now, even while its page is still loading (`ready` then rejects), or as
   * soon as it has started. Resolves when no process is left. Safe to call twice, and after use.
   */
  cancel(): Promise<void>;
}

/**
 * Launches one browser and opens the capture page in it: what every capture worker starts with.
 * Returned at once, so callers can start workers early (while other set-up runs) and still
 * cancel them without waiting for a slow page to load. A failure leaves no process behind.
 */
export function startPoolWorker(opts: OpenPoolWorkerOptions): WorkerLaunch {
  let session: BrowserSession | undefined;
  let cancelled = false;
  const ready = (async (): Promise<PoolWorker> => {
    // The page's abort signal also stops a launch in progress (a pool ignores it for its own browsers).
    const launchOptions = {
      browser: opts.browser,
      mode: opts.mode,
      gpu: opts.gpu ?? false,
      width: opts.page.width,
      height: opts.page.height,
      scale: opts.page.scale ?? 1,
      signal: opts.page.signal,
    };
    const launched = await (opts.pool ? opts.pool.acquire(launchOptions) : launchBrowser(launchOptions));
    session = launched;
    try {
      if (cancelled) throw new Error('cancelled before the page was opened');
      return poolWorker(launched, await openCapturePage(launched, { ...opts.page, mode: opts.mode }));
    } catch (error) {
      await launched.close();
      throw error;
    }
  })();
  // Callers may cancel without ever awaiting `ready`: that must not be an unhandled rejection.
  ready.catch(() => undefined);
  return {
    ready,
    cancel: async () => {
      cancelled = true;
      await session?.close();
      await ready.then(
        (worker) => worker.close(),
        () => undefined,
      );
    },
  };
}

/** startPoolWorker for callers that just want the ready worker. */
export function openPoolWorker(opts: OpenPoolWorkerOptions): Promise<PoolWorker> {
  return startPoolWorker(opts).ready;
}

/** An already open worker as a WorkerLaunch (so pools treat both alike). */
export function launchedWorker(worker: PoolWorker): WorkerLaunch {
  return { ready: Promise.resolve(worker), cancel: () => worker.close() };
}
