import type { CDPSession, Frame, Page } from 'puppeteer-core';
import { SeekframeError } from '@seekframe/composition';
import { openTargetPage, type TargetPage } from '../browser/open-target-page.js';
import { beginFrameCapture } from './begin-frame-capture.js';
import { canvasCapture, connectFrameSender, frameSenderUrl } from './canvas-capture.js';
import { CANVAS_HOST_PATH, canvasHostHtml, COMPOSITION_FRAME_ID, serveCanvasHost } from './canvas-host.js';
import { openFrameChannel, type FrameChannel } from './frame-receiver.js';
import type { CaptureMode } from '../browser/browser-flags.js';
import type { BrowserSession } from '../browser/launch-browser.js';
import { collectPageProblems, describePageProblem, type PageProblem } from './page-problems.js';
import { trackPendingRequests } from './pending-requests.js';
import { pageResponds, settleWithin, waitForPageReady } from './page-ready.js';
import { PageInterrupted, watchPage, type PageWatch } from './page-watch.js';
import { crashError, settledCrashError } from './classify-capture-failure.js';
import { dialogError, unresponsiveError } from './unresponsive-error.js';
import { canvasFrameBytes, checkCaptureOptions, type CapturePageOptions } from './capture-options.js';

export type { CapturePageOptions } from './capture-options.js';

export interface CapturedFrame {
  /** JPEG or PNG bytes; canvas mode: raw BGRA pixels, width x height x 4 bytes (see capturedPixelFormat). */
  data: Buffer;
  /**
   * beginframe and canvas modes: Chromium reported no damage (no repaint of the composition, in
   * canvas mode) since the frame this page last drew, so the pixels are that frame's and its
   * buffer is handed back without a new screenshot or draw.
   */
  reused: boolean;
  /**
   * canvas mode: hands `data` back to the capture page, which reuses its memory for a later frame
   * (frame-buffers.ts). Call it once, when nothing reads `data` any more (ffmpeg has taken the
   * bytes); a frame never released is garbage-collected instead.
   */
  release?(): void;
}

export interface CapturePage {
  readonly page: Page;
  evaluate: Page['evaluate'];
  /** Seeks to `t` seconds and returns the encoded frame. `frame` only labels errors. */
  seekAndCapture(t: number, frame?: number): Promise<Buffer>;
  /** Same as seekAndCapture, and says whether the previous frame was reused. */
  seekAndCaptureFrame(t: number, frame?: number): Promise<CapturedFrame>;
  /** Problems so far, as data: uncaught exceptions, console errors, failed requests, HTTP errors (with URLs). */
  problems(): PageProblem[];
  /** The same problems as one line each (describePageProblem), for messages and logs. */
  errors(): string[];
  close(): Promise<void>;
  /**
   * Lets go of what this process holds for the page, without a word to the browser: the watch on
   * the render's abort signal and the frame channel with its buffers. For a page whose browser or
   * context is being closed as a whole (PoolWorker.close); `close` does it too. Safe to call twice.
   * Why it matters: a listener left on a signal made with AbortSignal.any keeps that signal, and
   * through it the page, alive for the life of the process (Node keeps such signals while they
   * have listeners), and the receiver keeps an open channel until it is closed.
   */
  dispose(): void;
}

export async function openCapturePage(session: BrowserSession, opts: CapturePageOptions): Promise<CapturePage> {
  checkCaptureOptions(session, opts);
  let created: Awaited<ReturnType<typeof createPage>>;
  try {
    created = await createPage(session, opts.mode);
  } catch (error) {
    // Usually the browser died while the page was being made (puppeteer: "Connection closed.").
    throw await settledCrashError(session, error, `while opening a page for ${opts.url}`);
  }
  const { page, cdp } = created;
  const canvas = opts.mode === 'canvas';
  const problems = collectPageProblems(page);
  const pendingRequests = trackPendingRequests(page);
  // Every wait below races this: a crash or an abort ends it at once, whatever the page does.
  const watch = watchPage(page, opts.signal);
  const handle: OpenPage = {
    page,
    // Canvas mode: the composition runs in the host page's iframe; found once the host has loaded.
    frame: page.mainFrame(),
    channel: undefined,
    cdp,
    session,
    opts,
    watch,
    pump: opts.mode !== 'screenshot' ? () => pumpFrame(cdp) : undefined,
    seekTimeoutMs: opts.seekTimeoutMs ?? 30_000,
    failOnScriptErrors: opts.failOnScriptErrors ?? true,
    within: (promise, ms, pump) => settleWithin(promise, ms, pump, watch.interrupted),
    checkResponsive: async (where, waitedMs, details = {}) => {
      if (await pageResponds(page)) return;
      await session.kill();
      throw unresponsiveError(opts.url, where, waitedMs, details);
    },
  };
  const dispose = (): void => {
    watch.dispose();
    handle.channel?.close();
  };
  const closePage = async (): Promise<void> => {
    dispose();
    if (
      (await handle
        .within(
          page.close().catch(() => undefined),
          2_000,
        )
        .catch(() => 'timeout')) === 'timeout'
    )
      await session.kill();
  };
  try {
    if (canvas) await loadCanvasHost(handle, pendingRequests);
    else await loadPage(handle, pendingRequests);
  } catch (error) {
    // Classified before the page is closed: closing stops the watch that reports a crash.
    const failure =
      error instanceof SeekframeError ? error : await settledCrashError(session, error, `while loading ${opts.url}`, watch.interrupted);
    if (failure.code === 'page-unresponsive') {
      dispose();
      await session.kill();
    } else await closePage();
    throw failure;
  }

  const capture =
    opts.mode === 'canvas'
      ? canvasCapture(cdp, handle.channel!, canvasFrameBytes(opts), opts.skipUnchangedFrames ?? true)
      : opts.mode === 'beginframe'
        ? beginFrameCapture(cdp, opts)
        : screenshotCapture(cdp, opts);
  const seekAndCaptureFrame = (t: number, frame?: number): Promise<CapturedFrame> => seekAndCaptureOn(handle, capture, t, frame);
  return {
    page,
    // Scripts the producer runs in the page (mediaClips, useVideoFrames) get the same bounds.
    evaluate: ((...args: Parameters<Page['evaluate']>) => evaluateBounded(handle, args)) as Page['evaluate'],
    seekAndCaptureFrame,
    seekAndCapture: async (t, frame) => (await seekAndCaptureFrame(t, frame)).data,
    problems,
    errors: () => problems().map(describePageProblem),
    close: closePage,
    dispose,
  };
}

// What a capture page does with its page is below, as functions of the open page they are given;
// openCapturePage above keeps what it opens and closes (the page, its watch, the browser it may
// kill). See "Stateful objects" in docs/contributing/architecture.md.

/** An open page and the bounded waits on it that everything below shares. */
interface OpenPage {
  page: Page;
  /** Where the composition runs: the page's main frame, or the canvas host's iframe (canvas mode). */
  frame: Frame;
  /** Canvas mode: where the frame sender delivers the pixels. */
  channel: FrameChannel | undefined;
  cdp: CDPSession;
  session: BrowserSession;
  opts: CapturePageOptions;
  watch: PageWatch;
  /** beginframe: runs animation frames while a wait lasts (see pumpFrame). */
  pump: (() => Promise<void>) | undefined;
  seekTimeoutMs: number;
  failOnScriptErrors: boolean;
  /** A wait on the page, bounded in Node; 'timeout' when the page did not answer in time. */
  within<T>(promise: Promise<T>, ms: number, pump?: () => Promise<void>): Promise<T | 'timeout'>;
  /** Fails with page-unresponsive (browser killed) when the main thread is blocked, else returns. */
  checkResponsive(where: string, waitedMs: number, details?: Record<string, unknown>): Promise<void>;
}

/** Sets the viewport, loads the URL and waits until the page says it is ready. */
async function loadPage(open: OpenPage, pendingRequests: () => string[], navigateTo?: string): Promise<void> {
  const { page, cdp, opts, watch, pump, within, checkResponsive } = open;
  const setUp = async (): Promise<void> => {
    await page.setViewport({ width: opts.width, height: opts.height, deviceScaleFactor: 1 });
    // --scale: on the session that captures (an override belongs to the session that set it,
    // and Page.captureScreenshot and beginFrame paint with their own session's metrics).
    if ((opts.scale ?? 1) !== 1) {
      await cdp.send('Emulation.setDeviceMetricsOverride', {
        width: opts.width,
        height: opts.height,
        deviceScaleFactor: opts.scale!,
        mobile: false,
      });
    }
    if (opts.transparent) {
      await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    }
  };
  if ((await within(setUp(), opts.readyTimeoutMs)) === 'timeout') await checkResponsive('before loading', opts.readyTimeoutMs);
  const nav = page.goto(navigateTo ?? opts.url, { waitUntil: 'load', timeout: 0 });
  nav.catch(() => undefined);
  const loaded = await within(nav, opts.readyTimeoutMs, pump);
  if (loaded === 'timeout') {
    await checkResponsive('while loading', opts.readyTimeoutMs, { stage: 'load' });
    const waiting = pendingRequests();
    const detail =
      waiting.length > 0
        ? `; still loading ${waiting.slice(0, 5).join(', ')}${waiting.length > 5 ? ` (+${waiting.length - 5} more)` : ''}`
        : '';
    throw new SeekframeError(
      'ready-timeout',
      `${opts.url} did not finish loading within ${opts.readyTimeoutMs} ms${detail}. Check that those URLs answer, or raise the ready timeout.`,
      {
        stage: 'capture',
        retryable: true,
        details: { url: opts.url },
      },
    );
  }
  if (navigateTo !== undefined) open.frame = await compositionFrame(open);
  if (loaded && !loaded.ok() && loaded.status() >= 400) {
    throw new SeekframeError('page-load-failed', `${opts.url} answered HTTP ${loaded.status()}.`, {
      stage: 'capture',
      details: { url: opts.url, status: loaded.status() },
    });
  }
  await waitForPageReady(open.frame, opts.url, opts.readyTimeoutMs, pump, watch.interrupted);
  if (watch.dialogs().length > 0) throw dialogError(opts.url, 'while loading', watch.dialogs());
}

/**
 * Canvas mode: loads the host page (the composition in an iframe inside a `<canvas
 * layoutsubtree>`, canvas-host.ts) instead of the composition, waits for the composition to be
 * ready, and connects the frame sender to a fresh channel of the frame receiver.
 */
async function loadCanvasHost(open: OpenPage, pendingRequests: () => string[]): Promise<void> {
  const hostUrl = new URL(CANVAS_HOST_PATH, open.opts.url).href;
  const stopServing = await serveCanvasHost(
    open.cdp,
    hostUrl,
    canvasHostHtml(open.opts.url, open.opts.width, open.opts.height, open.opts.scale ?? 1),
  );
  try {
    await loadPage(open, pendingRequests, hostUrl);
  } finally {
    await stopServing();
  }
  open.channel = await openFrameChannel(canvasFrameBytes(open.opts));
  const connecting = connectFrameSender(open.page, open.channel, frameSenderUrl(), {
    pixels: open.opts.canvasPixels ?? 'bgra',
    transparent: open.opts.transparent,
  });
  connecting.catch(() => undefined);
  if ((await open.within(connecting, open.opts.readyTimeoutMs)) === 'timeout') {
    await open.checkResponsive('while connecting the canvas capture', open.opts.readyTimeoutMs);
    throw new SeekframeError(
      'ready-timeout',
      `The canvas capture of ${open.opts.url} did not connect within ${open.opts.readyTimeoutMs} ms.`,
      {
        stage: 'capture',
        retryable: true,
        details: { url: open.opts.url },
      },
    );
  }
}

/** The host page's iframe, where the composition runs (canvas mode). */
async function compositionFrame({ page, opts }: OpenPage): Promise<Frame> {
  const element = await page.$(`#${COMPOSITION_FRAME_ID}`);
  const frame = await element?.contentFrame();
  if (!frame) throw new Error(`the canvas host page lost its composition frame (${opts.url})`);
  return frame;
}

/** Seeks the page to `t` and captures it, every wait bounded by the seek timeout. */
async function seekAndCaptureOn(open: OpenPage, capture: () => Promise<CapturedFrame>, t: number, frame?: number): Promise<CapturedFrame> {
  const { session, opts, watch, seekTimeoutMs, within, checkResponsive } = open;
  const label = frame === undefined ? `t=${t}s` : `frame ${frame} (t=${t}s)`;
  let seekError: string | null;
  let scriptErrors: string[];
  try {
    const seeking = seekInPage(open.frame, t);
    seeking.catch(() => undefined);
    const outcome = await within(seeking, seekTimeoutMs, open.pump);
    if (outcome === 'timeout') {
      await checkResponsive(`at ${label}`, seekTimeoutMs, frameAt(t, frame));
      throw new SeekframeError('seek-timeout', `Seeking ${opts.url} to ${label} did not finish within ${seekTimeoutMs} ms.`, {
        stage: 'capture',
        retryable: true,
        details: { url: opts.url, ...frameAt(t, frame) },
      });
    }
    seekError = outcome.failed;
    scriptErrors = outcome.errors;
  } catch (error) {
    if (error instanceof SeekframeError) throw error;
    throw await settledCrashError(session, error, `at ${label}`, watch.interrupted);
  }
  if (watch.dialogs().length > 0) throw dialogError(opts.url, `at ${label}`, watch.dialogs(), frameAt(t, frame));
  if (seekError !== null) {
    throw new SeekframeError('page-script-error', `Seeking ${opts.url} to ${label} failed in the page: ${seekError}`, {
      stage: 'capture',
      details: { url: opts.url, ...frameAt(t, frame) },
    });
  }
  if (open.failOnScriptErrors && scriptErrors.length > 0) {
    throw new SeekframeError(
      'page-script-error',
      `A script in ${opts.url} threw (seen at ${label}): ${scriptErrors.slice(0, 3).join(' | ')}` +
        (scriptErrors.length > 3 ? ` (+${scriptErrors.length - 3} more)` : '') +
        '. Fix the script; the render stops on any script error.',
      {
        stage: 'capture',
        details: { url: opts.url, time: t, errors: scriptErrors.slice(0, 20), ...(frame === undefined ? {} : { frame }) },
      },
    );
  }
  try {
    const capturing = capture();
    capturing.catch(() => undefined);
    const captured = await within(capturing, seekTimeoutMs);
    if (captured === 'timeout') {
      await checkResponsive(`capturing ${label}`, seekTimeoutMs, frameAt(t, frame));
      throw new SeekframeError('capture-timeout', `Chromium produced no image for ${label} of ${opts.url} within ${seekTimeoutMs} ms.`, {
        stage: 'capture',
        retryable: true,
        details: { url: opts.url, ...frameAt(t, frame) },
      });
    }
    return captured;
  } catch (error) {
    if (error instanceof SeekframeError) throw error;
    throw await settledCrashError(session, error, `capturing ${label}`, watch.interrupted);
  }
}

/** Where a failure happened, for its details: built only when one is thrown, never per frame. */
function frameAt(t: number, frame: number | undefined): { time: number; frame?: number } {
  return frame === undefined ? { time: t } : { time: t, frame };
}

/** One round trip: seek, then read the runtime's record of author-script errors. */
function seekInPage(frame: Frame, t: number): Promise<{ failed: string | null; errors: string[] }> {
  return frame.evaluate(async (time: number) => {
    const sf = (window as unknown as { __seekframe: { seek(t: number): Promise<void>; errors?: () => unknown[] } }).__seekframe;
    let failed: string | null = null;
    try {
      await sf.seek(time);
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
    }
    const errors = typeof sf.errors === 'function' ? sf.errors().map(String) : [];
    return { failed, errors };
  }, t);
}

/** page.evaluate bounded by the ready timeout, with a crash reported as one. */
async function evaluateBounded(
  { frame, session, opts, within, checkResponsive }: OpenPage,
  args: Parameters<Page['evaluate']>,
): Promise<unknown> {
  try {
    const running = frame.evaluate(...args);
    running.catch(() => undefined);
    const result = await within(running, opts.readyTimeoutMs);
    if (result === 'timeout') {
      await checkResponsive('while running a script of the renderer in it', opts.readyTimeoutMs);
      throw new SeekframeError(
        'ready-timeout',
        `A script the renderer ran in ${opts.url} did not finish within ${opts.readyTimeoutMs} ms.`,
        { stage: 'capture', retryable: true, details: { url: opts.url } },
      );
    }
    return result;
  } catch (error) {
    if (error instanceof SeekframeError) throw error;
    if (error instanceof PageInterrupted) throw crashError(session, error, `in ${opts.url}`);
    throw error;
  }
}

/** The page a lease opened ahead (warm pool), else a new one. */
async function createPage(session: BrowserSession, mode: CaptureMode): Promise<TargetPage> {
  const ready = session.takeOpenedPage?.();
  if (ready) return ready;
  return openTargetPage(session.browser, mode, session.context);
}

/** Runs animation frames (rAF, layout) without drawing, so a page waiting on rAF can progress. */
async function pumpFrame(cdp: CDPSession): Promise<void> {
  await cdp.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true });
}

function screenshotCapture(cdp: CDPSession, opts: CapturePageOptions): () => Promise<CapturedFrame> {
  return async () => {
    const result = await cdp.send('Page.captureScreenshot', {
      format: opts.imageFormat,
      ...(opts.imageFormat === 'jpeg' ? { quality: opts.jpegQuality ?? 90 } : {}),
      optimizeForSpeed: true,
      fromSurface: true,
      captureBeyondViewport: false,
    });
    return { data: Buffer.from(result.data, 'base64'), reused: false };
  };
}
