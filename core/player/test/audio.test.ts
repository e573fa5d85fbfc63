import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { BrowserSession } from '@seekframe/engine';
import { createProjectServer, createRuntimeInjector, type ProjectServer } from '@seekframe/producer';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { bundlePlayer } from '../scripts/bundle.mjs';
import { hostPage, launchAutoplayBrowser, openPage, waitForEvents, type RecordedEvent } from './support/player-browser.js';

const run = promisify(execFile);

/** 3 s, a 2 s tone from 0.5 s. Rejections in the frame are recorded in window.rejections. */
const TONE = `<!doctype html><html data-composition-id="tone" data-width="160" data-height="90" data-duration="3">
<head><script>window.rejections = []; window.addEventListener('unhandledrejection', (e) => window.rejections.push(String(e.reason)));</script></head>
<body style="margin:0;background:#123"><audio id="a" src="tone.wav" data-start="0.5" data-volume="0.5"></audio>
<script>window.seeks = 0; document.getElementById('a').addEventListener('seeking', () => window.seeks++);</script></body></html>`;

/** play() refused as an autoplay policy would, plus a clip whose file is missing. */
const BLOCKED = TONE.replace(
  '</head>',
  `<script>HTMLMediaElement.prototype.play = function () { return Promise.reject(new DOMException('autoplay revoked', 'NotAllowedError')); };</script></head>`,
).replace('</body>', '<audio id="gone" src="missing.wav" data-start="0" data-duration="1"></audio></body>');

/** The tone inside a sub-composition starting at 1 s: audible from 1.5 s. */
const PARENT = `<!doctype html><html data-composition-id="parent" data-width="160" data-height="90" data-duration="3"><body style="margin:0">
<div data-composition-id="inner" data-composition-src="tone.html" data-start="1" data-duration="2" style="width:160px;height:90px"></div></body></html>`;

interface AudioState {
  time: number;
  paused: boolean;
  currentTime: number;
  muted: boolean;
  volume: number;
  rejections: string[];
  seeks: number;
}

/** The player's time and the audio element's state, read in one go. `sub`: inside the first sub-composition. */
function audioState(page: Page, sub = false): Promise<AudioState> {
  return page.evaluate((inSub) => {
    const player = document.querySelector('seekframe-player') as unknown as { contentWindow: Window; currentTime: number };
    let win = player.contentWindow as Window & { rejections: string[]; seeks: number };
    if (inSub) win = (win.document.querySelector('iframe') as HTMLIFrameElement).contentWindow as typeof win;
    const el = win.document.getElementById('a') as HTMLAudioElement;
    return {
      time: player.currentTime,
      paused: el.paused,
      currentTime: el.currentTime,
      muted: el.muted,
      volume: el.volume,
      rejections: win.rejections,
      seeks: win.seeks,
    };
  }, sub);
}

const call = (page: Page, method: 'play' | 'pause'): Promise<void> =>
  page.evaluate((m) => (document.querySelector('seekframe-player') as unknown as Record<string, () => void>)[m]?.(), method);
const seek = (page: Page, t: number): Promise<void> =>
  page.evaluate((at) => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(at), t);
const reachTime = (page: Page, t: number): Promise<unknown> =>
  page.waitForFunction(
    (at) => (document.querySelector('seekframe-player') as unknown as { currentTime: number }).currentTime >= at,
    { timeout: 30_000 },
    t,
  );
const events = (page: Page): Promise<RecordedEvent[]> => page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events);

let dir: string;
/** The project server the renderer uses (byte ranges, so media can seek), injecting in preview mode. */
let server: ProjectServer;
let session: BrowserSession;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-player-audio-'));
  await mkdir(path.join(dir, 'comp'));
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    path.join(dir, 'comp', 'tone.wav'),
  ]);
  await writeFile(path.join(dir, 'comp', 'tone.html'), TONE);
  await writeFile(path.join(dir, 'comp', 'blocked.html'), BLOCKED);
  await writeFile(path.join(dir, 'comp', 'parent.html'), PARENT);
  await writeFile(path.join(dir, 'seekframe-player.js'), (await bundlePlayer({ write: false })) as string);
  await writeFile(path.join(dir, 'tone.html'), hostPage('/seekframe-player.js', 'src="comp/tone.html"'));
  await writeFile(path.join(dir, 'blocked.html'), hostPage('/seekframe-player.js', 'src="comp/blocked.html"'));
  await writeFile(path.join(dir, 'parent.html'), hostPage('/seekframe-player.js', 'src="comp/parent.html"'));
  server = await createProjectServer({
    root: dir,
    entry: 'comp/tone.html',
    prepareHtml: createRuntimeInjector({ runtimeSource: (await bundleRuntime({ write: false })) as string, mode: 'preview' }),
  });
  session = await launchAutoplayBrowser();
});

afterAll(async () => {
  await session?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(url: string): Promise<Page> {
  const page = await openPage(session, url);
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await waitForEvents(page, 'ready');
  return page;
}

describe('<seekframe-player> audio', () => {
  it('plays a clip inside its window at the right offset, pauses, mutes and resyncs on a seek', async () => {
    const page = await open(`${server.origin}/tone.html`);
    expect(await audioState(page)).toMatchObject({ time: 0, paused: true, muted: false });
    expect(
      await page.evaluate(() => document.querySelector('seekframe-player')?.shadowRoot?.querySelector('iframe')?.getAttribute('allow')),
    ).toBe('autoplay');

    await call(page, 'play');
    await reachTime(page, 0.6);
    const playing = await audioState(page);
    expect(playing.paused).toBe(false);
    expect(playing.volume).toBe(0.5);
    // The element's clock is read in two steps and resyncs asynchronously: on a busy machine one
    // reading may straddle a resync, so the offset is polled until it holds (it must, within 3 s).
    const offsetDrift = async () => {
      const state = await audioState(page);
      return Math.abs(state.currentTime - (state.time - 0.5));
    };
    await expect.poll(offsetDrift, { timeout: 3_000 }).toBeLessThan(0.3);
    await reachTime(page, 1.1);
    await expect.poll(offsetDrift, { timeout: 3_000 }).toBeLessThan(0.3);
    const later = await audioState(page);
    // It plays on by itself: re-seeked only on drift, not on every frame (~15 frames passed).
    expect(later.seeks).toBeLessThanOrEqual(2);

    await page.evaluate(() => document.querySelector('seekframe-player')?.setAttribute('muted', ''));
    expect((await audioState(page)).muted).toBe(true);
    await page.evaluate(() => {
      (document.querySelector('seekframe-player') as unknown as { muted: boolean }).muted = false;
    });
    expect((await audioState(page)).muted).toBe(false);

    // seeking while playing resyncs, forwards and backwards
    await seek(page, 2);
    const ahead = await audioState(page);
    expect(ahead.paused).toBe(false);
    expect(Math.abs(ahead.time - 2)).toBeLessThan(0.5);
    await expect.poll(offsetDrift, { timeout: 3_000 }).toBeLessThan(0.3);
    await seek(page, 1.2);
    const resynced = await audioState(page);
    expect(resynced.paused).toBe(false);
    expect(Math.abs(resynced.time - 1.2)).toBeLessThan(0.5);
    await expect.poll(offsetDrift, { timeout: 3_000 }).toBeLessThan(0.3);
    expect(resynced.seeks).toBeGreaterThan(ahead.seeks);
    expect(ahead.seeks).toBeGreaterThan(later.seeks);

    await call(page, 'pause');
    expect((await audioState(page)).paused).toBe(true);
    await seek(page, 1.5);
    const parked = await audioState(page);
    expect(parked.paused).toBe(true);
    expect(parked.currentTime).toBeCloseTo(1, 2);
    expect((await events(page)).map((e) => e.type)).not.toContain('error');
    expect(parked.rejections).toEqual([]);
    await page.close();
  });

  it('keeps playing silently and fires audioblocked (not error, no unhandled rejection) when play() is refused', async () => {
    const page = await open(`${server.origin}/blocked.html`);
    await call(page, 'play');
    await waitForEvents(page, 'audioblocked');
    await reachTime(page, 1);
    const state = await audioState(page);
    const recorded = await events(page);
    // once per clip and play, not once per frame
    expect(recorded.filter((e) => e.type === 'audioblocked').map((e) => e.detail)).toEqual([{ src: `${server.origin}/comp/tone.wav` }]);
    expect(recorded.map((e) => e.type)).not.toContain('error');
    expect(await page.evaluate(() => (document.querySelector('seekframe-player') as unknown as { paused: boolean }).paused)).toBe(false);
    expect(state.rejections).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe('<seekframe-player> audio in sub-compositions', () => {
  it('plays a sub-composition clip with the host offset applied and pauses it with the player', async () => {
    const page = await open(`${server.origin}/parent.html`);
    await seek(page, 1.4);
    expect((await audioState(page, true)).paused).toBe(true);
    await call(page, 'play');
    await reachTime(page, 1.7);
    const playing = await audioState(page, true);
    expect(playing.paused).toBe(false);
    expect(Math.abs(playing.currentTime - (playing.time - 1.5))).toBeLessThan(0.3);
    await call(page, 'pause');
    expect((await audioState(page, true)).paused).toBe(true);
    await page.close();
  });
});
