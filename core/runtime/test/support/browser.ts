import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const CANDIDATES = [process.env.SEEKFRAME_BROWSER, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

export interface TestBrowser {
  browser: Browser;
  newPage(width?: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

/** One real headless Chromium per test file, with the flags that keep it quiet offline. */
export async function launchTestBrowser(): Promise<TestBrowser> {
  const executablePath = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!executablePath) throw new Error('No Chromium found; install chromium-headless-shell or set SEEKFRAME_BROWSER');
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-runtime-test-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  return {
    browser,
    async newPage(width = 160, height = 90) {
      const page = await browser.newPage();
      await page.setViewport({ width, height });
      return page;
    },
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
