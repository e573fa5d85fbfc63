import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer-core';
import { SeekframeError } from '@seekframe/composition';
import { browserArgs, mergeJsFlags, type CaptureMode } from './browser-flags.js';
import type { TargetPage } from './open-target-page.js';
import { whileConnected } from './while-connected.js';
import type { BrowserInfo } from './browser-info.js';
import { processTree } from '../system/pin-to-cpu.js';
import { tempFolderPrefix } from '../system/atomic-output.js';
import { FRAME_SENDER_URL_PREFIX } from '../capture/canvas-capture.js';

/** How long a polite Browser.close may take before the process tree is killed instead. */
const CLOSE_GRACE_MS = 2_000;
/** How long a launch that lost the race to its browser's disconnect may take to give its own reason. */
const LAUNCH_SETTLE_MS = 500;

export interface LaunchOptions {
  browser: Pick<BrowserInfo, 'path' | 'kind'> & Partial<Pick<BrowserInfo, 'supportsBeginFrame' | 'version' | 'extraArgs'>>;
  mode: CaptureMode;
  gpu?: boolean;
  width: number;
  height: number;
  /** --scale: the device scale factor every page of this browser paints at (default 1). */
  scale?: number;
  /** How long to wait for the browser to come up (default 30 s). */
  timeoutMs?: number;
  /** V8's heap limit for every page of this browser, in MB (`--max-old-space-size`); default V8's own. */
  jsHeapLimitMB?: number;
  /**
   * A browser of one render only: aborting kills it at once, also while it is still starting (a
   * start takes ~1 s on a busy machine; a cancelled render need not wait for it). Never for a
   * pooled browser, which outlives the render (the pool drops it).
   */
  signal?: AbortSignal | undefined;
}

export interface BrowserSession {
  readonly browser: Browser;
  readonly mode: CaptureMode;
  readonly executablePath: string;
  /**
   * A warm pool's lease (pool/browser-pool.ts): pages must open in this isolated context, never in
   * the browser's default one. Absent for a browser launched for one render.
   */
  readonly context?: BrowserContext;
  /**
   * A warm pool's lease whose context was opened ahead of the render (pool/browser-pool.ts) also
   * has its first page open already: the first call hands it over, later calls return undefined.
   */
  takeOpenedPage?(): TargetPage | undefined;
  /**
   * Closes the browser and removes its fresh profile folder. Safe to call twice. Never waits on
   * the page: a browser that does not close within 2 s is killed (its whole process tree).
   */
  close(): Promise<void>;
  /** SIGKILLs the browser and every process below it now (a page that stopped answering), then cleans up. */
  kill(): Promise<void>;
}

/** Starts one browser process with a fresh profile that is removed again on close. */
export async function launchBrowser(opts: LaunchOptions): Promise<BrowserSession> {
  if (opts.mode !== 'screenshot' && opts.browser.supportsBeginFrame === false) {
    throw new SeekframeError(
      'beginframe-unsupported',
      `${opts.browser.path} (${opts.browser.kind}) cannot produce frames with HeadlessExperimental.beginFrame. ` +
        'Use the screenshot capture mode, or install chrome-headless-shell (`apt-get install chromium-headless-shell`) and point SEEKFRAME_BROWSER at it.',
      { stage: 'browser', details: { path: opts.browser.path } },
    );
  }
  const userDataDir = await mkdtemp(tempFolderPrefix('profile'));
  let browser: Browser;
  // puppeteer.launch waits without a bound for the first tab's page to attach: a browser that died
  // in between (killed, out of memory) left the launch, and the render waiting on it, waiting
  // forever. The first target puppeteer reports hands us the browser before launch returns, so
  // the start also ends the moment that browser disconnects. puppeteer's own promise then stays
  // pending inside puppeteer (its TargetManager's wait has no timeout and ignores the
  // disconnect); nothing here keeps it, so it is garbage with its dead connection
  // (test/launch-browser.test.ts, "a crashed launch holds nothing").
  let starting: Browser | undefined;
  let sawBrowser!: (browser: Browser) => void;
  const seen = new Promise<Browser>((resolve) => (sawBrowser = resolve));
  const launching = puppeteer.launch({
    executablePath: opts.browser.path,
    // The headless shell only knows old headless; full Chromium gets the new headless mode.
    headless: opts.browser.kind === 'headless-shell' ? 'shell' : true,
    args: mergeJsFlags([...browserArgs(opts), ...(opts.browser.extraArgs ?? [])]),
    userDataDir,
    defaultViewport: null,
    pipe: true,
    timeout: opts.timeoutMs ?? 30_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...(opts.signal ? { signal: opts.signal } : {}),
    targetFilter: (target) => {
      // A canvas capture's frame sender is not attached: DevTools would copy every frame it sends.
      if (target.url().startsWith(FRAME_SENDER_URL_PREFIX)) return false;
      if (!starting) {
        try {
          starting = target.browser();
          sawBrowser(starting);
        } catch {
          // no browser context yet: a later target hands it over
        }
      }
      return true; // puppeteer's default: every target
    },
  });
  try {
    browser = await Promise.race([launching, seen.then((early) => whileConnected(early, launching, 'while it started'))]);
  } catch (raced) {
    // An abort only kills the browser (puppeteer then has no reason of its own to give): no wait.
    const error = opts.signal?.aborted ? raced : await launchFailure(launching, raced);
    // Gone already when it disconnected, mostly; the steps of a close make sure of every process.
    const child = starting?.process() ?? undefined;
    killBrowserProcesses(child, true);
    await exitWithin(child, CLOSE_GRACE_MS);
    await removeProfile(userDataDir);
    throw new SeekframeError(
      'browser-launch-failed',
      `Could not start the browser at ${opts.browser.path}: ${error instanceof Error ? error.message : String(error)}. ` +
        'Check that it runs (`<path> --version`), or point SEEKFRAME_BROWSER at another Chromium.',
      { stage: 'browser', retryable: true, details: { path: opts.browser.path }, cause: error },
    );
  }
  const child = browser.process() ?? undefined;
  let closing: Promise<void> | undefined;
  const finish = (polite: boolean): Promise<void> => {
    closing ??= (async () => {
      if (polite) {
        // Browser.close answers even while a renderer spins, but nothing here may depend on it.
        const closed = await Promise.race([
          browser.close().then(
            () => true,
            () => false,
          ),
          delay(CLOSE_GRACE_MS).then(() => false),
        ]);
        if (!closed) killBrowserProcesses(child);
      } else {
        killBrowserProcesses(child);
      }
      await exitWithin(child, CLOSE_GRACE_MS);
      browser.disconnect().catch(() => undefined);
      await removeProfile(userDataDir);
    })();
    return closing;
  };
  return { browser, mode: opts.mode, executablePath: opts.browser.path, close: () => finish(true), kill: () => finish(false) };
}

/**
 * Why a launch failed. When puppeteer gives up by itself (its own wait for the first page timed
 * out) it closes the browser before it rejects, so the disconnect wins the race with a message
 * that hides the reason: the launch gets a moment to say it, and its reason is preferred.
 */
async function launchFailure(launching: Promise<Browser>, raced: unknown): Promise<unknown> {
  const own = await Promise.race([
    launching.then(
      () => undefined,
      (error: unknown) => ({ error }),
    ),
    delay(LAUNCH_SETTLE_MS).then(() => undefined),
  ]);
  return own ? own.error : raced;
}

/**
 * SIGKILLs every process of the browser: its process tree, read before the kill (renderers may
 * outlive a killed parent), and its process group (puppeteer starts the browser as a group
 * leader), which also holds the children of a parent that died already, whom no tree leads to.
 * Once the main process is reaped its pid, and so the group's number, may name other processes
 * later on: then the tree is not read, and the group is killed only when the browser `diedJustNow`
 * (a failed start; pids are handed out in a cycle, never again within moments).
 */
function killBrowserProcesses(child: ChildProcess | undefined, diedJustNow = false): void {
  if (child?.pid === undefined) return;
  const reaped = child.exitCode !== null || child.signalCode !== null;
  const pids = reaped ? [] : processTree(child.pid).reverse();
  if (!reaped || diedJustNow) pids.push(-child.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Resolves when the browser's main process has exited, or after `ms`. */
function exitWithin(child: ChildProcess | undefined, ms: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return Promise.race([exited, delay(ms)]);
}

/** Removes the browser's fresh profile; a folder that will not go is left to the OS's temp cleanup, never a failed close. */
async function removeProfile(userDataDir: string): Promise<void> {
  await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
