import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { SeekframeError } from '@seekframe/composition';
import { browserArgs, type CaptureMode } from './browser-flags.js';
import type { BrowserInfo } from './browser-info.js';

export interface LaunchOptions {
  browser: Pick<BrowserInfo, 'path' | 'kind'> & Partial<Pick<BrowserInfo, 'supportsBeginFrame' | 'version' | 'extraArgs'>>;
  mode: CaptureMode;
  gpu?: boolean;
  width: number;
  height: number;
  /** How long to wait for the browser to come up (default 30 s). */
  timeoutMs?: number;
}

export interface BrowserSession {
  readonly browser: Browser;
  readonly mode: CaptureMode;
  readonly executablePath: string;
  /** Closes the browser and removes its fresh profile folder. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts one browser process with a fresh profile that is removed again on close. */
export async function launchBrowser(opts: LaunchOptions): Promise<BrowserSession> {
  if (opts.mode === 'beginframe' && opts.browser.supportsBeginFrame === false) {
    throw new SeekframeError(
      'beginframe-unsupported',
      `${opts.browser.path} (${opts.browser.kind}) cannot produce frames with HeadlessExperimental.beginFrame. ` +
        'Use the screenshot capture mode, or install chrome-headless-shell (`apt-get install chromium-headless-shell`) and point SEEKFRAME_BROWSER at it.',
      { stage: 'browser', details: { path: opts.browser.path } },
    );
  }
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-profile-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: opts.browser.path,
      // The headless shell only knows old headless; full Chromium gets the new headless mode.
      headless: opts.browser.kind === 'headless-shell' ? 'shell' : true,
      args: [...browserArgs(opts), ...(opts.browser.extraArgs ?? [])],
      userDataDir,
      defaultViewport: null,
      pipe: true,
      timeout: opts.timeoutMs ?? 30_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw new SeekframeError(
      'browser-launch-failed',
      `Could not start the browser at ${opts.browser.path}: ${error instanceof Error ? error.message : String(error)}. ` +
        'Check that it runs (`<path> --version`), or point SEEKFRAME_BROWSER at another Chromium.',
      { stage: 'browser', retryable: true, details: { path: opts.browser.path }, cause: error },
    );
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await browser.close();
      } catch {
        // Already dead (crash or kill): make sure the process is gone, then clean up.
        browser.process()?.kill('SIGKILL');
      }
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    })();
    return closing;
  };
  return { browser, mode: opts.mode, executablePath: opts.browser.path, close };
}
