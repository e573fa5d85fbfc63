import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { launchBrowser } from '../src/browser/launch-browser.js';
import { openTargetPage } from '../src/browser/open-target-page.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { killLaunchesWhileStarting } from './die-while-starting.js';

let browser: BrowserInfo;
let spy: ReturnType<typeof killLaunchesWhileStarting> | undefined;

beforeAll(async () => {
  browser = await findBrowser();
});
afterEach(() => {
  spy?.mockRestore();
  spy = undefined;
});

describe('launchBrowser', () => {
  it('fails with browser-launch-failed when the browser dies while puppeteer waits for its first page, instead of waiting forever', async () => {
    spy = killLaunchesWhileStarting(() => true);
    const profilesBefore = await profiles();
    await expect(launchBrowser({ browser, mode: 'beginframe', width: 32, height: 32 })).rejects.toMatchObject({
      code: 'browser-launch-failed',
      retryable: true,
      message: expect.stringContaining('went away while it started'),
    });
    expect(spy).toHaveBeenCalledTimes(1);
    // Its fresh profile is removed like after any failed start.
    expect([...(await profiles())].filter((name) => !profilesBefore.has(name))).toEqual([]);
  });
});

describe('whileConnected', () => {
  it('leaves no disconnect listener behind after a launch and after pages opened and closed', async () => {
    const session = await launchBrowser({ browser, mode: 'beginframe', width: 32, height: 32 });
    try {
      // What the browser holds of its own: launch raced the start with a listener that must be gone.
      const own = session.browser.listenerCount('disconnected');
      expect(own).toBe(0);
      for (let i = 0; i < 5; i++) {
        const { page } = await openTargetPage(session.browser, 'beginframe');
        await page.close();
      }
      expect(session.browser.listenerCount('disconnected')).toBe(own);
    } finally {
      await session.close();
    }
  });
});

async function profiles(): Promise<Set<string>> {
  return new Set((await readdir(os.tmpdir())).filter((name) => name.startsWith(`seekframe-profile-${process.pid}-`)));
}
