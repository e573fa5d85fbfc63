import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import type { Page } from 'puppeteer-core';

/** A real Chromium launched the way the engine launches it (closed-network flags, fresh profile). */
export async function launchPlayerBrowser(): Promise<BrowserSession> {
  return launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 320, height: 240 });
}

export async function openPage(session: BrowserSession, url: string, width = 320, height = 240): Promise<Page> {
  const page = await session.browser.newPage();
  await page.setViewport({ width, height });
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

export interface RecordedEvent {
  type: string;
  detail: unknown;
}

/** Waits until the host page recorded `count` events of `type`; returns all recorded events. */
export async function waitForEvents(page: Page, type: string, count = 1): Promise<RecordedEvent[]> {
  await page.waitForFunction(
    (t, n) => (window as unknown as { events: RecordedEvent[] }).events.filter((e) => e.type === t).length >= n,
    { timeout: 30_000 },
    type,
    count,
  );
  return page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events);
}

/** A page with one player, loading the bundle from `playerUrl`. */
export function hostPage(playerUrl: string, attributes: string): string {
  return `<!doctype html><html><head><style>body{margin:0;background:#fff}</style>
<script type="module" src="${playerUrl}"></script></head>
<body><seekframe-player ${attributes}></seekframe-player>
<script>
  // Recorded before the element upgrades, so no event is missed.
  window.events = [];
  const player = document.querySelector('seekframe-player');
  for (const type of ['ready', 'timeupdate', 'play', 'pause', 'ended', 'error', 'audioblocked']) {
    player.addEventListener(type, (event) => window.events.push({ type, detail: event.detail ?? null }));
  }
</script></body></html>`;
}

/** A 160x90, 1 s composition: a box sliding 0 -> 140 px (CSS animation), coloured by a variable. */
export const SLIDING_BOX = `<!doctype html>
<html data-composition-id="box" data-width="160" data-height="90" data-duration="1"
  data-composition-variables='[{"id":"color","type":"color","label":"Colour","default":"#ff0000"}]'>
<head><style>
  html, body { margin: 0; width: 160px; height: 90px; background: #203040; overflow: hidden; }
  #box { position: absolute; top: 20px; left: 0; width: 20px; height: 50px; animation: slide 1s linear both; }
  @keyframes slide { from { left: 0px; } to { left: 140px; } }
</style></head>
<body><div id="box"></div>
<script>
  const { color = '#ff0000' } = window.__seekframe.getVariables();
  document.getElementById('box').style.background = color;
</script></body></html>`;

/** As launchPlayerBrowser, but media may start without a user gesture (the audio tests). */
export async function launchAutoplayBrowser(): Promise<BrowserSession> {
  const browser = await findBrowser();
  return launchBrowser({
    browser: { ...browser, extraArgs: [...(browser.extraArgs ?? []), '--autoplay-policy=no-user-gesture-required'] },
    mode: 'screenshot',
    width: 320,
    height: 240,
  });
}
