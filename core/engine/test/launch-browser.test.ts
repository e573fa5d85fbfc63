import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { launchBrowser } from '../src/browser/launch-browser.js';
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

async function profiles(): Promise<Set<string>> {
  return new Set((await readdir(os.tmpdir())).filter((name) => name.startsWith(`seekframe-profile-${process.pid}-`)));
}
