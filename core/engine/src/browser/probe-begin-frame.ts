import type { CDPSession } from 'puppeteer-core';
import { launchBrowser } from './launch-browser.js';
import type { BrowserInfo } from './browser-info.js';
import { createBeginFrameTarget } from './begin-frame-target.js';
import { rememberBeginFrame, rememberedProbe } from './browser-probe-record.js';

/** What a real launch of a binary showed: beginFrame control, and HTML-in-canvas capture on top of it. */
export interface BrowserProbe {
  beginFrame: boolean;
  canvas: boolean;
}

const cache = new Map<string, Promise<BrowserProbe>>();

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
  let answer = beginFrameAnswers.get(browserPath);
  if (!answer) {
    answer = probeBrowser(browserPath, kind).then((probe) => probe.beginFrame);
    beginFrameAnswers.set(browserPath, answer);
  }
  return answer;
}

const beginFrameAnswers = new Map<string, Promise<boolean>>();

/**
 * probeBeginFrame, and whether the same binary draws HTML into a canvas (`drawElementImage`,
 * `<canvas layoutsubtree>`, `VideoFrame` from a canvas) with the canvas capture's flags: the one
 * launch answers both.
 */
export function probeBrowser(
  browserPath: string,
  kind: BrowserInfo['kind'] = /headless[-_]shell/.test(browserPath) ? 'headless-shell' : 'chromium',
): Promise<BrowserProbe> {
  let result = cache.get(browserPath);
  if (!result) {
    result = runProbe(browserPath, kind);
    cache.set(browserPath, result);
  }
  return result;
}

async function runProbe(browserPath: string, kind: BrowserInfo['kind']): Promise<BrowserProbe> {
  const remembered = await rememberedProbe(browserPath);
  if (remembered?.canvas !== undefined) return { beginFrame: true, canvas: remembered.canvas };
  const probe = await launchAndProbe(browserPath, kind);
  if (probe.beginFrame) await rememberBeginFrame(browserPath, process.env, probe.canvas);
  return probe;
}

/** The real test: launch the binary with the canvas capture's flags (beginframe's and more), ask for one frame, look for the canvas API. */
export async function launchAndProbe(browserPath: string, kind: BrowserInfo['kind']): Promise<BrowserProbe> {
  let session: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    session = await launchBrowser({ browser: { path: browserPath, kind }, mode: 'canvas', width: 16, height: 16, timeoutMs: 20_000 });
    const { page, cdp } = await createBeginFrameTarget(session.browser, 'about:blank');
    await withTimeout(beginFrame(cdp), 10_000);
    const canvas = await withTimeout(
      page.evaluate(
        () =>
          typeof (CanvasRenderingContext2D.prototype as { drawElementImage?: unknown }).drawElementImage === 'function' &&
          'layoutSubtree' in HTMLCanvasElement.prototype &&
          typeof VideoFrame === 'function',
      ),
      10_000,
    ).catch(() => false);
    return { beginFrame: true, canvas };
  } catch {
    return { beginFrame: false, canvas: false };
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
