import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { launchBrowser } from '../src/browser/launch-browser.js';
import { openTargetPage } from '../src/browser/open-target-page.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { hidePageTargets, killLaunchesWhileStarting } from './die-while-starting.js';
import { until } from './until.js';

let browser: BrowserInfo;
let spy: ReturnType<typeof killLaunchesWhileStarting> | undefined;
/** Processes a test stopped: killed after it whatever happened, so none is left behind. */
let frozen: number[] = [];

beforeAll(async () => {
  browser = await findBrowser();
});
afterEach(() => {
  spy?.mockRestore();
  spy = undefined;
  for (const pid of frozen.filter(running)) process.kill(pid, 'SIGKILL');
  frozen = [];
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

  it('kills every process of a browser that died while it started, also children that outlived it', async () => {
    const trees: number[][] = [];
    spy = killLaunchesWhileStarting(() => true, { trees, freezeChildren: true });
    const profilesBefore = await profiles();
    await expect(launchBrowser({ browser, mode: 'beginframe', width: 32, height: 32 })).rejects.toMatchObject({
      code: 'browser-launch-failed',
    });
    const tree = trees[0]!;
    frozen = tree.slice(1);
    expect(frozen.length).toBeGreaterThan(0); // a browser starts helpers (zygote, utilities) before its first tab
    // SIGKILL may take a moment to land; a stopped process that nobody kills never stops running.
    await until(() => !tree.some(running), `every process of the browser's tree (${tree.join(', ')}) to end`);
    expect([...(await profiles())].filter((name) => !profilesBefore.has(name))).toEqual([]);
  });

  it("reports puppeteer's own reason when puppeteer gives up and closes the browser itself", async () => {
    spy = hidePageTargets();
    const profilesBefore = await profiles();
    // puppeteer waits for the first page for `timeout`, closes the browser, then rejects: the
    // disconnect comes first, and used to hide the timeout behind "went away while it started".
    const failure = launchBrowser({ browser, mode: 'beginframe', width: 32, height: 32, timeoutMs: 1_000 });
    await expect(failure).rejects.toMatchObject({
      code: 'browser-launch-failed',
      message: expect.stringContaining('Timed out after waiting 1000ms'),
    });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining('went away') });
    expect([...(await profiles())].filter((name) => !profilesBefore.has(name))).toEqual([]);
  });
});

describe('a crashed launch holds nothing', () => {
  it("puppeteer's launch stays pending inside puppeteer, but retains nothing: every crashed launch's Browser is garbage-collected", async () => {
    // puppeteer.launch never settles when the browser dies while its TargetManager waits for the
    // first tab (an internal wait with no timeout that ignores the disconnect; nothing public can
    // end it). launchBrowser answers at once and keeps no reference to it, so the pending
    // promise, its connection and its Browser become garbage together: nothing grows per crash.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    let collected = 0;
    const registry = new FinalizationRegistry(() => collected++);
    const LAUNCHES = 4;
    spy = killLaunchesWhileStarting(() => true, { onBrowser: (b) => registry.register(b, 'browser') });
    for (let i = 0; i < LAUNCHES; i++) {
      await expect(launchBrowser({ browser, mode: 'beginframe', width: 32, height: 32 })).rejects.toMatchObject({
        code: 'browser-launch-failed',
      });
    }
    // The spy keeps each launch's promise (its mock results): drop it, as production code keeps none.
    spy.mockReset();
    spy.mockRestore();
    spy = undefined;
    await until(() => {
      gc();
      return collected === LAUNCHES;
    }, `the ${LAUNCHES} crashed launches' Browser objects to be garbage-collected (${collected} so far)`);
    expect(process.listenerCount('exit')).toBeLessThan(5);
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

/** True while `pid` exists and is not a zombie (dead, only not reaped yet). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

async function profiles(): Promise<Set<string>> {
  return new Set((await readdir(os.tmpdir())).filter((name) => name.startsWith(`seekframe-profile-${process.pid}-`)));
}
