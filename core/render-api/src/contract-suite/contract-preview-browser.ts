import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { Page } from 'puppeteer-core';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { BADGE_RGB, countColorPixels, probeVideo, RENDER_FINISHES_MS, RENDER_TEST_MS } from './contract-http.js';
import { useTarget, type RenderApiContractOptions } from './run-render-api-contract.js';

const readyCount = (page: Page): Promise<number> => page.evaluate(() => Number(document.body.dataset.playerReady ?? '0'));

async function playerShot(page: Page): Promise<Buffer> {
  const player = await page.$('seekframe-player');
  if (!player) throw new Error('no <seekframe-player> on the preview page');
  return Buffer.from(await player.screenshot({ type: 'png' }));
}

/** Waits for the player's next ready (after `loads` earlier ones), or fails with what the page shows. */
async function waitForPlayer(page: Page, loads: number): Promise<void> {
  await page
    .waitForFunction(
      (n: number) => Number(document.body.dataset.playerReady ?? '0') > n || document.getElementById('status')!.className === 'error',
      { timeout: 60_000 },
      loads,
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `the player did not become ready; the page says "${await page.$eval('#status', (el) => el.textContent)}" (${String(error)})`,
      );
    });
  const status = await page.$eval('#status', (el) => (el.className === 'error' ? el.textContent : ''));
  if (status) throw new Error(`the preview failed: ${status}`);
}

/** The preview page in real headless Chromium (the engine's browser and launch flags). */
export function definePreviewBrowserContract(options: RenderApiContractOptions): void {
  describe('preview page in headless Chromium', () => {
    const base = useTarget(options, {});
    let session: BrowserSession | undefined;
    let page: Page;

    beforeAll(async () => {
      session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 800, height: 700 });
      page = await session.browser.newPage();
      await page.setViewport({ width: 800, height: 700 });
    }, 60_000);
    afterAll(async () => {
      await session?.close();
    });

    it('the player becomes ready at the composition size, the form has one field per variable, and an edit changes the picture', async () => {
      await page.goto(base(), { waitUntil: 'load' });
      await waitForPlayer(page, 0);
      const size = await page.$eval('seekframe-player', (el) => ({
        width: Number(el.getAttribute('width')),
        height: Number(el.getAttribute('height')),
      }));
      // Sized from the composition's own 160x90, not a hard-coded 1920x1080.
      expect(size.width / size.height).toBeCloseTo(160 / 90, 2);
      expect(size.width).toBeLessThanOrEqual(160);
      expect(
        await page.$$eval('#variables input, #variables select', (fields) => fields.map((f) => `${f.id}:${(f as HTMLInputElement).type}`)),
      ).toEqual(['var-title:text', 'var-size:number', 'var-hold:checkbox']);
      const before = await playerShot(page);
      const loads = await readyCount(page);
      await page.$eval('#var-size', (el) => {
        (el as HTMLInputElement).value = '60';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await page.waitForFunction((n: number) => Number(document.body.dataset.playerReady ?? '0') > n, { timeout: 60_000 }, loads);
      const after = await playerShot(page);
      expect(after.equals(before)).toBe(false);
      // The sub-composition is still drawn in the reloaded frame.
      expect(await countColorPixels(after, 'png', BADGE_RGB)).toBeGreaterThan(300);
    }, 120_000);

    it('plays a sub-composition (data-composition-src) with its own runtime, as the render does', async () => {
      await page.goto(base(), { waitUntil: 'load' });
      await waitForPlayer(page, 0);
      // The child document runs inside the player's iframe, with its own runtime.
      const child = page.frames().find((frame) => frame.url().endsWith('/preview/composition/badge.html'));
      if (!child)
        throw new Error(
          `no frame loaded badge.html; frames: ${page
            .frames()
            .map((frame) => frame.url())
            .join(', ')}`,
        );
      expect(await child.evaluate(() => typeof (window as { __seekframe?: unknown }).__seekframe)).toBe('object');
      expect(await child.$eval('#badge', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 224, 160)');
      // And the picture shows it: the 30x20 badge, nearly all of its 600 pixels.
      expect(await countColorPixels(await playerShot(page), 'png', BADGE_RGB)).toBeGreaterThan(300);
    }, 120_000);

    it(
      'Render shows progress and ends with a link to a playable MP4',
      async () => {
        await page.click('#render');
        // Wait for the link, or an error the page shows (then fail with its words).
        await page
          .waitForFunction(
            () =>
              !(document.getElementById('result') as HTMLAnchorElement).hidden || document.getElementById('status')!.className === 'error',
            { timeout: RENDER_FINISHES_MS },
          )
          .catch(async (error: unknown) => {
            throw new Error(`no result link; the page says "${await page.$eval('#status', (el) => el.textContent)}" (${String(error)})`);
          });
        expect(await page.$eval('#status', (el) => el.className)).toBe('');
        const href = await page.$eval('#result', (a) => (a as HTMLAnchorElement).href);
        const bytes = href.startsWith('blob:')
          ? Buffer.from(
              await page.evaluate(async (url: string) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), href),
            )
          : Buffer.from(await (await fetch(new URL(href, base()))).arrayBuffer());
        expect(await probeVideo(bytes)).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 10 });
        const status = await page.$eval('#status', (el) => el.textContent);
        expect(status).toBe('Done.');
      },
      RENDER_TEST_MS,
    );
  });

  describe('preview page with RENDER_API_TOKEN', () => {
    const base = useTarget(options, { token: 'contract-preview-token' });
    let session: BrowserSession | undefined;

    afterAll(async () => {
      await session?.close();
    });

    it(
      'asks for the token, then plays the composition and renders with it',
      async () => {
        session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 800, height: 700 });
        const page = await session.browser.newPage();
        await page.goto(base(), { waitUntil: 'load' });
        // Ends on the token form or on the page's own error, so a failure says what the page saw.
        await page.waitForFunction(
          () =>
            !(document.getElementById('token-form') as HTMLFormElement).hidden || document.getElementById('status')!.className === 'error',
          { timeout: 60_000 },
        );
        expect(await page.$eval('#status', (el) => `${el.className}: ${el.textContent}`)).toBe(': This deployment needs its API token.');
        expect(await page.$('seekframe-player')).toBeNull();
        await page.type('#token', 'contract-preview-token');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => Number(document.body.dataset.playerReady ?? '0') >= 1, { timeout: 60_000 });
        expect(await page.$eval('#token-form', (form) => (form as HTMLFormElement).hidden)).toBe(true);
        expect(await page.$$eval('#variables input', (fields) => fields.length)).toBe(3);
        // Render with the token: the link is a blob of the file fetched with it (a plain link could not send it).
        await page.click('#render');
        await page.waitForFunction(
          () =>
            !(document.getElementById('result') as HTMLAnchorElement).hidden || document.getElementById('status')!.className === 'error',
          { timeout: RENDER_FINISHES_MS },
        );
        expect(await page.$eval('#status', (el) => el.textContent)).toBe('Done.');
        const href = await page.$eval('#result', (a) => (a as HTMLAnchorElement).href);
        // A file this API serves needs the token, which a plain link cannot send: the page links a
        // blob it fetched with the token. A store's own URL on another origin (Vercel Blob) needs none.
        if (!href.startsWith('blob:')) expect(new URL(href).origin).not.toBe(new URL(base()).origin);
        const bytes = href.startsWith('blob:')
          ? Buffer.from(
              await page.evaluate(async (url: string) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), href),
            )
          : Buffer.from(await (await fetch(href)).arrayBuffer());
        expect(await probeVideo(bytes)).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 10 });
      },
      RENDER_TEST_MS + 120_000,
    );
  });
}
