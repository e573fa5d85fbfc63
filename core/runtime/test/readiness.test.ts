import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { ffmpeg } from './support/ffmpeg.js';
import { startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

const FONT = '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf';
let fx: RuntimeFixture;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-ready-'));
  const png = path.join(dir, 'blue.png');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=8x8', '-frames:v', '1', png]);
  fx = await startRuntimeFixture();
  const r = fx.server.routes;
  r.set('/font.ttf', { file: FONT, delayMs: 400 });
  r.set('/slow.png', { file: png, delayMs: 400 });
  r.set('/later.png', { file: png, delayMs: 300 });
  r.set('/never.png', { hang: true });
  r.set(
    '/assets.html',
    `<!doctype html><html data-duration="2"><head><style>@font-face{font-family:TestSans;src:url(/font.ttf)}
  p{font-family:TestSans,monospace}</style></head><body><p>Hello</p><img id="img" src="/slow.png">
<script>
  const late = new Image();
  window.__seekframe.onSeek((t) => { if (t >= 1 && !late.src) { late.src = '/later.png'; document.body.append(late); } });
</script></body></html>`,
  );
  r.set('/stuck.html', `<!doctype html><html data-duration="1"><body><img src="/never.png"></body></html>`);
  r.set('/broken.html', `<!doctype html><html data-duration="1"><body><img src="/missing.png"></body></html>`);
});

afterAll(async () => {
  await fx?.close();
  await rm(dir, { recursive: true, force: true });
});

async function openEarly(p: string): Promise<Page> {
  const page = await fx.browser.newPage();
  await page.goto(`${fx.server.url}${p}`, { waitUntil: 'domcontentloaded' });
  return page;
}

describe('ready and seek wait for assets', () => {
  it('resolves ready only after a slow web font and a slow image are loaded and decoded', async () => {
    const page = await openEarly('/assets.html');
    const state = await page.evaluate(async () => {
      await window.__seekframe!.ready;
      const img = document.getElementById('img') as HTMLImageElement;
      const font = [...document.fonts].find((f) => f.family === 'TestSans');
      return { font: font?.status, check: document.fonts.check('16px TestSans'), complete: img.complete, width: img.naturalWidth };
    });
    expect(state).toEqual({ font: 'loaded', check: true, complete: true, width: 8 });
    await page.close();
  });

  it('lets seek wait for an image a seek callback adds', async () => {
    const page = await openEarly('/assets.html');
    const width = await page.evaluate(async () => {
      await window.__seekframe!.seek(1);
      const late = [...document.images].find((i) => i.src.endsWith('/later.png'))!;
      return late.complete ? late.naturalWidth : -1;
    });
    expect(width).toBe(8);
    await page.close();
  });

  it('names what it waits for in pending() while an image never loads', async () => {
    const page = await openEarly('/stuck.html');
    await page.evaluate(() => {
      void window.__seekframe!.ready.then(() => document.body.setAttribute('data-ready', ''));
    });
    // page timers are virtual (they follow seeks), so wait on the Node side
    await new Promise((r) => setTimeout(r, 700));
    const state = await page.evaluate(() => ({
      s: document.body.hasAttribute('data-ready') ? 'ready' : 'waiting',
      pending: window.__seekframe!.pending(),
    }));
    expect(state.s).toBe('waiting');
    expect(state.pending).toContain(`image ${fx.server.url}/never.png`);
    expect(state.pending).toContain('window load event');
    await page.close();
  });

  it('rejects ready naming an image that fails to load', async () => {
    const page = await openEarly('/broken.html');
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain(`${fx.server.url}/missing.png`);
    expect(await page.evaluate(() => window.__seekframe!.errors())).toEqual([]);
    await page.close();
  });
});
