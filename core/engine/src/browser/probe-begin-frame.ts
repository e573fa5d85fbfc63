import type { CDPSession } from 'puppeteer-core';
import { launchBrowser } from './launch-browser.js';
import type { BrowserInfo } from './browser-info.js';
import { createBeginFrameTarget } from './begin-frame-target.js';
import { rememberBeginFrame, rememberedBeginFrame } from './browser-probe-record.js';

const cache = new Map<string, Promise<boolean>>();

/**
 * Whether this binary can drive frames with HeadlessExperimental.beginFrame. Only a real call
 * answers that: full Chromium in new headless mode lacks the domain, and some builds accept the
 * flag but never answer. Cached per binary path for the life of the process, and a positive
 * answer across processes (browser-probe-record.ts).
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
  if (await rememberedBeginFrame(browserPath)) return true;
  const supported = await launchAndProbe(browserPath, kind);
  if (supported) await rememberBeginFrame(browserPath);
  return supported;
}

/** The real test: launch the binary in beginframe mode and ask for one frame. */
export async function launchAndProbe(browserPath: string, kind: BrowserInfo['kind']): Promise<boolean> {
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
