import type { CDPSession } from 'puppeteer-core';
import { launchBrowser } from './launch-browser.js';
import type { BrowserInfo } from './browser-info.js';
import { createBeginFrameTarget } from './begin-frame-target.js';

const cache = new Map<string, Promise<boolean>>();

/**
 * Whether this binary can drive frames with HeadlessExperimental.beginFrame. Only a real call
 * answers that: full Chromium in new headless mode lacks the domain, and some builds accept the
 * flag but never answer. Cached per binary path for the life of the process.
 */
export function probeBeginFrame(
  browserPath: string,
  kind: BrowserInfo['kind'] = /headless[-_]shell/.test(browserPath) ? 'headless-shell' : 'chromium',
): Promise<boolean> {
  let result = cache.get(browserPath);
  if (!result) {
    result = runProbe(browserPath, kind);
    cache.set(browserPath, result);
  }
  return result;
}

async function runProbe(browserPath: string, kind: BrowserInfo['kind']): Promise<boolean> {
  let session: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    session = await launchBrowser({ browser: { path: browserPath, kind }, mode: 'beginframe', width: 16, height: 16, timeoutMs: 20_000 });
    const { cdp } = await createBeginFrameTarget(session.browser, 'about:blank');
    await withTimeout(beginFrame(cdp), 10_000);
    return true;
  } catch {
    return false;
  } finally {
    await session?.close();
  }
}

function beginFrame(cdp: CDPSession): Promise<unknown> {
  return cdp.send('HeadlessExperimental.beginFrame', { screenshot: { format: 'png' } });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
