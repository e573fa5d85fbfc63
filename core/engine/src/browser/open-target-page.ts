import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';
import type { CaptureMode } from './browser-flags.js';
import { createBeginFrameTarget } from './begin-frame-target.js';
import { whileConnected } from './while-connected.js';

/** A blank page (about:blank) with its own CDP session, ready to be set up for capture. */
export interface TargetPage {
  page: Page;
  cdp: CDPSession;
}

/**
 * Opens the blank page a capture page starts from, in `context` when given (a warm pool's lease):
 * a beginFrame-controlled target in beginframe mode, an ordinary tab in screenshot mode. The
 * warm pool calls this ahead of a render too, so one rule decides what a capture page is.
 */
export function openTargetPage(browser: Browser, mode: CaptureMode, context?: BrowserContext): Promise<TargetPage> {
  // Opening waits for the new target to show up (up to 10-30 s), which a dead browser never ends.
  return whileConnected(browser, openPage(browser, mode, context), 'while opening a page');
}

async function openPage(browser: Browser, mode: CaptureMode, context?: BrowserContext): Promise<TargetPage> {
  // canvas mode draws after beginFrames too: its page is a beginFrame target.
  if (mode !== 'screenshot') return createBeginFrameTarget(browser, 'about:blank', context);
  const page = await (context ?? browser).newPage();
  // Full Chromium may open the tab in the background, where it never paints and
  // captureScreenshot waits forever.
  await page.bringToFront();
  return { page, cdp: await page.createCDPSession() };
}
