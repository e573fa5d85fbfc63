import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';

/**
 * Creates a page whose frames are produced only by HeadlessExperimental.beginFrame. The flag must
 * be given when the target is created, which puppeteer's newPage() cannot do, so we ask the
 * browser over CDP and then pick the new target up as a puppeteer Page.
 */
export async function createBeginFrameTarget(
  browser: Browser,
  url: string,
  context?: BrowserContext,
): Promise<{ page: Page; cdp: CDPSession }> {
  const browserCdp = await browserSession(browser);
  const before = new Set(browser.targets());
  // In a warm pool's lease the page must live in the lease's own (isolated) browser context.
  const { targetId } = await browserCdp.send('Target.createTarget', {
    url,
    enableBeginFrameControl: true,
    ...(context?.id ? { browserContextId: context.id } : {}),
  });
  const target = await browser.waitForTarget(
    (t) => {
      const id = targetIdOf(t);
      // Should a future puppeteer drop the field, take the one page that did not exist before.
      return id === undefined ? t.type() === 'page' && !before.has(t) : id === targetId;
    },
    { timeout: 10_000 },
  );
  const page = await target.page();
  if (!page) throw new Error(`target ${targetId} is not a page`);
  const cdp = await target.createCDPSession();
  return { page, cdp };
}

const browserSessions = new WeakMap<Browser, Promise<CDPSession>>();

/**
 * One DevTools session on the browser target per browser, kept until the browser closes. A warm
 * pool opens pages in two contexts of one browser at once; with a session per call, one call's
 * detach made puppeteer forget the browser target while the other still needed it ("Browser
 * target is not found").
 */
function browserSession(browser: Browser): Promise<CDPSession> {
  let session = browserSessions.get(browser);
  if (!session) {
    session = browser.target().createCDPSession();
    browserSessions.set(browser, session);
    session.catch(() => browserSessions.delete(browser));
  }
  return session;
}

function targetIdOf(target: unknown): string | undefined {
  // puppeteer-core keeps the CDP target id on an internal field; _targetId is stable across v2x.
  return (target as { _targetId?: string })._targetId;
}
