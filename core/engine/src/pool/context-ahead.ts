import type { Browser, BrowserContext } from 'puppeteer-core';
import type { CaptureMode } from '../browser/browser-flags.js';
import { openTargetPage, type TargetPage } from '../browser/open-target-page.js';
import { relayablePort, startProxyRelay, type ProxyRelay } from './proxy-relay.js';

/**
 * What kind of context a lease needs, as far as opening it ahead goes:
 * - `open`: no proxy (an open-network render);
 * - `relayed`: a loopback proxy that decides everything and bypasses nothing (`<-loopback>` only:
 *   the producer's network sandbox), reached through a relay bound when the lease starts;
 * - undefined: anything else (a proxy elsewhere, other bypass rules): never opened ahead.
 */
export type AheadKind = 'open' | 'relayed';

export function aheadKind(proxy: { proxyServer?: string; proxyBypassList?: string[] }): AheadKind | undefined {
  if (proxy.proxyServer === undefined) return proxy.proxyBypassList === undefined ? 'open' : undefined;
  const onlyLoopbackRule = proxy.proxyBypassList?.length === 1 && proxy.proxyBypassList[0] === '<-loopback>';
  return onlyLoopbackRule && relayablePort(proxy.proxyServer) !== undefined ? 'relayed' : undefined;
}

/** A fresh context with its blank first page, opened before the render that will use it. */
export interface ContextAhead {
  readonly kind: AheadKind;
  readonly context: BrowserContext;
  readonly page: TargetPage;
  /** Only for `relayed`: the context's proxy, bound to the render's proxy when leased. */
  readonly relay?: ProxyRelay;
  /** Closes what an unused context holds (the context and its relay). */
  discard(): Promise<void>;
}

/**
 * Opens the next lease's context and page now: a new renderer process and the page's DevTools
 * attach take ~60 ms of a warm render (2 cores); done beside the current lease they overlap its
 * capture instead of delaying the next render. The context is as fresh as one opened at acquire:
 * nothing runs in it but about:blank until it is leased, and a `relayed` context's relay drops
 * every connection until then.
 */
export async function openContextAhead(browser: Browser, mode: CaptureMode, kind: AheadKind): Promise<ContextAhead> {
  const relay = kind === 'relayed' ? await startProxyRelay() : undefined;
  let context: BrowserContext | undefined;
  try {
    context = await browser.createBrowserContext(relay ? { proxyServer: relay.proxyServer, proxyBypassList: ['<-loopback>'] } : {});
    const page = await openTargetPage(browser, mode, context);
    const opened = context;
    return {
      kind,
      context: opened,
      page,
      ...(relay ? { relay } : {}),
      async discard() {
        await opened.close().catch(() => undefined);
        await relay?.close();
      },
    };
  } catch (error) {
    await context?.close().catch(() => undefined);
    await relay?.close();
    throw error;
  }
}
