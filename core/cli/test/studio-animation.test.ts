import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../../..');
/** The docs show what this run saw (docs/guide/studio.md). */
const SHOTS = path.join(REPO, 'docs', 'public');

let preview: PreviewServer;
let session: BrowserSession;
let page: Page;
/** What the console and the network said while the studio loaded. */
const console_: string[] = [];
const failed: string[] = [];

beforeAll(async () => {
  preview = await startPreview({
    entryFile: path.join(REPO, 'compositions', 'ui-3d-reveal', 'index.html'),
    port: 0,
    playerSource: (await bundlePlayer({ write: false })) as string,
    appSource: (await bundlePreviewApp({ write: false })) as string,
    runtimeSource: (await bundleRuntime({ write: false })) as string,
    env: {},
    renderContext: {},
  });
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1440, height: 900 });
  page = await session.browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on('console', (m) => console_.push(`${m.type()}: ${m.text()}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  await page.goto(preview.url, { waitUntil: 'load' });
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent === 'ready' && document.querySelectorAll('.tl-anim').length > 0,
    {
      timeout: 60_000,
    },
  );
});

afterAll(async () => {
  await session?.close();
  await preview?.close();
});

const frame = (): Promise<number> => page.$eval('#frame', (el) => Number((el as HTMLInputElement).value));

describe('the studio on the bundled GSAP-only composition', () => {
  it('loads without a 404 (favicon included) and without console warnings (no sandbox warning)', () => {
    expect(failed).toEqual([]);
    expect(console_.filter((line) => /^(warn|error)/.test(line))).toEqual([]);
  });

  it("shows the animation: a lane per animated element with a bar per tween, and the timeline's GSAP labels on the ruler", async () => {
    const lanes = await page.$$eval('.tl-label.lane-label', (els) => els.map((el) => el.textContent ?? ''));
    expect(lanes.length).toBeGreaterThan(20);
    expect(lanes.filter((lane) => lane.startsWith('div.bg-spot'))).toHaveLength(1);
    const bars = await page.$$eval('.tl-anim', (els) =>
      els.map((el) => ({
        kind: (el as HTMLElement).dataset.kind,
        start: Number((el as HTMLElement).dataset.start),
        end: Number((el as HTMLElement).dataset.end),
      })),
    );
    expect(bars.length).toBeGreaterThan(40);
    expect(bars.every((b) => b.kind === 'gsap' && b.end > b.start && b.end <= 6)).toBe(true);
    const labels = await page.$$eval('.tl-marker', (els) =>
      els.map((el) => [(el as HTMLElement).dataset.label, Number((el as HTMLElement).dataset.time)]),
    );
    expect(labels).toEqual([
      ['cards', 0.2],
      ['sweep', 2.05],
      ['rise', 2.3],
      ['title', 2.95],
      ['settled', 5.3],
    ]);
  });

  it('inspects a tween: properties, ease, times', async () => {
    const index = await page.evaluate(() => {
      const labels = [...document.querySelectorAll('#tl-labels .tl-label')];
      const rows = [...document.querySelectorAll('#tl-rows .tl-row')];
      const lane = labels.findIndex((el) => el.textContent?.startsWith('div.bg-spot'));
      // The labels column starts with the ruler's "Time"; the rows do not.
      return rows[lane - 1]!.querySelector<HTMLElement>('.tl-anim')!.dataset.index;
    });
    await page.click(`.tl-anim[data-index="${index}"]`);
    await page.waitForSelector('#inspector [data-animation="ease"]');
    const shown = await page.$$eval('#inspector [data-animation]', (els) =>
      Object.fromEntries(els.map((el) => [(el as HTMLElement).dataset.animation, el.textContent])),
    );
    expect(shown).toMatchObject({
      kind: 'gsap',
      properties: 'opacity, scale',
      ease: 'power2.out',
      start: '0.000 s (frame 0)',
      end: '1.600 s',
    });
  });

  it('jumps between labels with Shift+arrows, and plays with J/K/L at the speeds they step through', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Home');
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '0');
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '6');
    await page.keyboard.press('ArrowDown');
    // sweep at 2.05 s shows frame 61 (2.033 s) at 30 fps.
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '61');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '6');
    await page.keyboard.up('Shift');

    const rate = () =>
      page.evaluate(() => ({ playbackRate: (document.getElementById('player') as unknown as { playbackRate: number }).playbackRate }));
    await page.keyboard.press('l');
    await page.waitForFunction(() => document.getElementById('play')?.textContent === 'Pause');
    expect((await rate()).playbackRate).toBe(1);
    await page.keyboard.press('l');
    expect(await page.$eval('#speed', (el) => (el as HTMLSelectElement).value)).toBe('2');
    await page.keyboard.press('k');
    await page.waitForFunction(() => document.getElementById('play')?.textContent === 'Play');
    const at = await frame();
    await page.keyboard.press('j');
    await page.waitForFunction((f) => Number((document.getElementById('frame') as HTMLInputElement).value) < f, { timeout: 30_000 }, at);
    await page.keyboard.press('k');
    expect(await page.$eval('#dropped', (el) => el.textContent)).toMatch(/^(dropped \d+ of \d+ frames)?$/);
  });

  it('loops playback inside the in/out work area set with I and O', async () => {
    await page.click('#frame', { clickCount: 3 });
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('i');
    await page.click('#frame', { clickCount: 3 });
    await page.keyboard.type('39');
    await page.keyboard.press('Enter');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('o');
    expect(await page.$eval('#range-label', (el) => el.textContent)).toContain('work area 30–39');
    await page.evaluate(() => {
      const player = document.getElementById('player')!;
      const times: number[] = [];
      (window as unknown as { __times: number[] }).__times = times;
      player.addEventListener('timeupdate', (e) => times.push((e as CustomEvent<{ currentTime: number }>).detail.currentTime));
    });
    await page.keyboard.press(' ');
    // Until the playhead came round to the start of the work area again.
    await page.waitForFunction(
      () => {
        const t = (window as unknown as { __times: number[] }).__times;
        return t.some((x, i) => i > 0 && x < t[i - 1]!);
      },
      { timeout: 60_000 },
    );
    await page.keyboard.press(' ');
    const times = await page.evaluate(() => (window as unknown as { __times: number[] }).__times);
    expect(times.every((t) => t >= 1 - 1e-9 && t < 40 / 30)).toBe(true);
    await page.keyboard.press('x');
    expect(await page.$eval('#range-label', (el) => el.textContent)).toBe('');
  });

  it('sets the work area by dragging the top of the ruler; Ctrl+wheel zooms; the ruler selects no text; a checkerboard is behind the picture', async () => {
    const strip = (await (await page.$('#tl-range-strip'))!.boundingBox())!;
    const ticks = await page.$$eval('.tl-tick.major', (els) => els.map((el) => el.getBoundingClientRect().left));
    const pps = ticks[1]! - ticks[0]!;
    // From 1.0 s to 2.0 s at 30 fps: frames 30 to 60.
    await page.mouse.move(ticks[0]! + 1.01 * pps, strip.y + strip.height / 2);
    await page.mouse.down();
    await page.mouse.move(ticks[0]! + 2.01 * pps, strip.y + strip.height / 2, { steps: 4 });
    await page.mouse.up();
    expect(await page.$eval('#range-label', (el) => el.textContent)).toContain('work area 30–60');
    expect(await page.$eval('#render-range-text', (el) => el.textContent)).toBe('work area: frames 30 to 60 (31 frames)');
    await page.keyboard.press('x');

    expect(await page.$eval('#zoom-level', (el) => el.textContent)).toBe('fit');
    const scroll = (await (await page.$('#tl-scroll'))!.boundingBox())!;
    await page.mouse.move(scroll.x + 200, scroll.y + 40);
    await page.keyboard.down('Control');
    await page.mouse.wheel({ deltaY: -100 });
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.getElementById('zoom-level')?.textContent === '1.5×');
    await page.keyboard.press('0');

    expect(await page.$eval('#tl-ruler', (el) => getComputedStyle(el).userSelect)).toBe('none');
    const checker = await page.evaluate(() => {
      const stage = document.getElementById('player')!.shadowRoot!.querySelector('.stage')!;
      return getComputedStyle(stage).backgroundImage;
    });
    expect(checker).toContain('conic-gradient');
  });

  it('follows the window: the player never covers the side panel, and the panels resize', async () => {
    const boxes = () =>
      page.evaluate(() => {
        const r = (id: string) => document.getElementById(id)!.getBoundingClientRect();
        const aside = document.querySelector('aside')!.getBoundingClientRect();
        return { picture: r('picture').right, stage: r('stage').right, aside: aside.left, asideWidth: aside.width };
      });
    await page.click('#view-fit');
    for (const width of [900, 1440]) {
      await page.setViewport({ width, height: 800 });
      await page.waitForFunction((w) => window.innerWidth === w, {}, width);
      await requestAnimationFrameTwice(page);
      const b = await boxes();
      expect(b.picture, `width ${width}`).toBeLessThanOrEqual(b.aside);
      expect(b.stage, `width ${width}`).toBeLessThanOrEqual(b.aside);
    }
    const before = (await boxes()).asideWidth;
    const split = (await (await page.$('#split-aside'))!.boundingBox())!;
    await page.mouse.move(split.x + 3, split.y + 100);
    await page.mouse.down();
    await page.mouse.move(split.x - 97, split.y + 100, { steps: 4 });
    await page.mouse.up();
    expect(Math.round((await boxes()).asideWidth - before)).toBe(100);
  });

  it('takes the screenshots the docs show', async () => {
    await mkdir(SHOTS, { recursive: true });
    await page.setViewport({ width: 1440, height: 900 });
    // A fresh page: nothing left from the tests above (dropped-frame counts, the layout's sizes).
    await page.evaluate(() => localStorage.clear());
    await page.goto(preview.url, { waitUntil: 'load' });
    await page.waitForFunction(
      () => document.getElementById('status')?.textContent === 'ready' && document.querySelectorAll('.tl-anim').length > 0,
    );
    await page.click('#frame', { clickCount: 3 });
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '100');
    await page.screenshot({ path: path.join(SHOTS, 'studio-animation.png') });
  });
});

/** Two animation frames of the page: layout and the ResizeObserver callbacks have run. */
function requestAnimationFrameTwice(p: Page): Promise<void> {
  return p.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
