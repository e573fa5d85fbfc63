import type { Browser } from 'puppeteer-core';

/**
 * `work`, or a rejection the moment `browser` disconnects (at once when it already has). Some
 * waits in puppeteer do not end when the browser dies: only CDP calls fail on a closed
 * connection, while a wait for a target or event is bounded by its own timeout or not at all. A
 * render must end with browser-crashed then, not wait: every such wait goes through here. The
 * message says "Connection closed", which classify-capture-failure.ts reads as browser-crashed.
 */
export function whileConnected<T>(browser: Browser, work: Promise<T>, doing: string): Promise<T> {
  // Whatever `work` does after the browser is gone, nobody waits for it any more.
  work.catch(() => undefined);
  const gone = (): Error => {
    const error = new Error(`Connection closed: the browser went away ${doing}`);
    // V8 keeps an error's stack frames (their functions and receivers: here the Browser emitting
    // 'disconnected', and through it the whole dead connection) until `stack` is first read.
    // Read it now, so an error kept as a cause (a job's failure) keeps only text.
    void error.stack;
    return error;
  };
  if (!browser.connected) return Promise.reject(gone());
  return new Promise<T>((resolve, reject) => {
    // on/off, never once: puppeteer's once() registers a wrapper that off(handler) does not find,
    // so every launch and every page opened left one listener on the browser.
    const onDisconnected = (): void => {
      browser.off('disconnected', onDisconnected);
      reject(gone());
    };
    browser.on('disconnected', onDisconnected);
    work.then(resolve, reject).finally(() => browser.off('disconnected', onDisconnected));
  });
}
