import type { Frame, Page } from 'puppeteer-core';
import { SeekframeError } from '@seekframe/composition';
import { unresponsiveError } from './unresponsive-error.js';

/**
 * Waits for `window.__seekframe.ready`. The timeout runs in Node, not in the page: in render mode
 * the runtime drives the page clock from the seek time, so page timers cannot be trusted to fire.
 * A page whose main thread is blocked fails with `page-unresponsive` (the caller kills it).
 */
export async function waitForPageReady(
  page: Page | Frame,
  url: string,
  timeoutMs: number,
  pump?: () => Promise<void>,
  interrupt?: Promise<never>,
): Promise<void> {
  const hasRuntime = await settleWithin(
    page.evaluate(() => typeof (window as { __seekframe?: unknown }).__seekframe === 'object'),
    timeoutMs,
    undefined,
    interrupt,
  );
  if (hasRuntime === 'timeout') throw unresponsiveError(url, 'while loading', timeoutMs, { stage: 'load' });
  if (!hasRuntime) {
    throw new SeekframeError(
      'runtime-missing',
      `${url} has no window.__seekframe: the Seekframe runtime was not injected into the page. ` +
        'Serve the composition through the Seekframe project server (it injects the runtime first in <head>).',
      { stage: 'capture', details: { url } },
    );
  }
  const ready = page.evaluate(async () => {
    try {
      await (window as unknown as { __seekframe: { ready: Promise<void> } }).__seekframe.ready;
      return { ok: true as const };
    } catch (error) {
      return { ok: false as const, reason: error instanceof Error ? error.message : String(error) };
    }
  });
  const outcome = await settleWithin(ready, timeoutMs, pump, interrupt);
  if (outcome === 'timeout') {
    if (!(await pageResponds(page))) throw unresponsiveError(url, 'while getting ready', timeoutMs, { stage: 'ready' });
    const pending = await describePending(page);
    throw new SeekframeError(
      'ready-timeout',
      `${url} was not ready after ${timeoutMs} ms: ${pending}. ` +
        'Check that every font, image and media file loads, or raise the ready timeout.',
      { stage: 'capture', retryable: true, details: { url, timeoutMs } },
    );
  }
  if (!outcome.ok) {
    throw new SeekframeError('ready-failed', `${url} failed to get ready: ${outcome.reason}`, {
      stage: 'capture',
      details: { url },
    });
  }
}

async function describePending(page: Page | Frame): Promise<string> {
  const pending = await settleWithin(
    page
      .evaluate(() => {
        const sf = (window as unknown as { __seekframe?: { pending?: () => unknown } }).__seekframe;
        return typeof sf?.pending === 'function' ? sf.pending() : null;
      })
      .catch(() => null),
    1_500,
  );
  if (Array.isArray(pending) && pending.length > 0) return `still waiting for ${pending.map(String).join(', ')}`;
  if (pending === 'timeout') return 'window.__seekframe.pending() did not answer';
  if (typeof pending === 'string' && pending) return `still waiting for ${pending}`;
  return 'window.__seekframe.ready never resolved';
}

/**
 * Resolves with the promise's value, or 'timeout'. While waiting, `pump` is called back to back:
 * in beginframe mode the page gets no animation frames unless we send them, and a page that
 * awaits requestAnimationFrame would otherwise never settle. Returns as soon as the promise
 * settles (and a pump already sent has come back), never after a pause: this runs once per
 * frame, and a fixed 5 ms pause here once cost every frame 5 ms of idle browser.
 *
 * The timer runs in Node and never depends on the page: after a timeout (or when `interrupt`
 * rejects: crash, abort) a pump still in flight is not awaited, since a page whose main thread
 * is blocked never answers it.
 */
export async function settleWithin<T>(
  promise: Promise<T>,
  timeoutMs: number,
  pump?: () => Promise<void>,
  interrupt?: Promise<never>,
): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const finished = Promise.race([promise, timeout, ...(interrupt ? [interrupt] : [])]);
  const pumping = pump ? pumpUntil(finished, pump) : undefined;
  let outcome: T | 'timeout';
  try {
    outcome = await finished;
  } finally {
    clearTimeout(timer);
  }
  // The page answered, so its last pump comes back too; bounded all the same.
  if (outcome !== 'timeout' && pumping) await Promise.race([pumping, interrupt ?? pumping, sleep(timeoutMs)]).catch(() => undefined);
  return outcome;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Answers within `ms` when the page's main thread is free; false when it is blocked (or gone). */
export async function pageResponds(page: Page | Frame, ms = 1_500): Promise<boolean> {
  const answer = await settleWithin(
    page.evaluate(() => true).catch(() => false),
    ms,
  );
  return answer === true;
}

/** Sends `pump` every ~5 ms until `finished` settles; a pause ends the moment it does. */
async function pumpUntil(finished: Promise<unknown>, pump: () => Promise<void>): Promise<void> {
  let done = false;
  const over = finished.then(
    () => void (done = true),
    () => void (done = true),
  );
  // Give the page a moment to settle on its own before driving frames.
  await pauseUnless(over, 5);
  while (!done) {
    await pump().catch(() => undefined);
    await pauseUnless(over, 5);
  }
}

function pauseUnless(over: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const pause = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([pause, over]).finally(() => clearTimeout(timer));
}
