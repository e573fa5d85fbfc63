import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpeg } from './support/ffmpeg.js';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

let fx: RuntimeFixture;
let dir: string;

const GREY = '{"adjust":{"saturation":0}}';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-grading-'));
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x2050e0:s=8x8,format=rgb24', '-frames:v', '1', path.join(dir, 'blue.png')]);
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0xe04020:s=8x8,format=rgb24', '-frames:v', '1', path.join(dir, 'red.png')]);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=0xc03020:s=16x16:d=2:r=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    path.join(dir, 'clip.mp4'),
  ]);
  fx = await startRuntimeFixture();
  const r = fx.server.routes;
  r.set('/blue.png', { file: path.join(dir, 'blue.png') });
  r.set('/slow-red.png', { file: path.join(dir, 'red.png'), delayMs: 400 });
  r.set('/clip.mp4', { file: path.join(dir, 'clip.mp4') });
  // At t >= 1 a script swaps the graded image for one that takes 400 ms to arrive.
  r.set(
    '/swap.html',
    `<!doctype html><html data-duration="2"><body><img id="img" src="/blue.png" data-color-grading='${GREY}' style="width:16px;height:16px">
<script>window.__seekframe.onSeek((t) => { document.getElementById('img').src = t >= 1 ? '/slow-red.png' : '/blue.png'; });</script></body></html>`,
  );
  r.set(
    '/video.html',
    `<!doctype html><html data-duration="2"><body><video id="v" src="/clip.mp4" muted data-color-grading='${GREY}' style="width:16px;height:16px"></video></body></html>`,
  );
  r.set(
    '/no-lut.html',
    `<!doctype html><html data-duration="1"><body><img src="/blue.png" data-color-grading='{"lut":"luts/gone.cube"}'></body></html>`,
  );
  r.set(
    '/remote-lut.html',
    `<!doctype html><html data-duration="1"><body><img src="/blue.png" data-color-grading='{"lut":"http://[::1]:9/x.cube"}'></body></html>`,
  );
  r.set(
    '/bad-ref.html',
    `<!doctype html><html data-duration="1" data-composition-variables='[{"id":"ev","type":"number","label":"EV","default":0}]'><body><img src="/blue.png" data-color-grading='{"adjust":{"exposure":"$ev"}}'></body></html>`,
  );
});

afterAll(async () => {
  await fx?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The graded canvas's centre pixel and whether the element itself is hidden behind it. */
function gradedPixel(page: Page, selector: string): Promise<{ rgb: number[]; hidden: boolean }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel) as HTMLElement;
    const canvas = el.parentElement!.querySelector('canvas[data-seekframe-overlay]') as HTMLCanvasElement;
    const px = canvas.getContext('2d')!.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
    return { rgb: [px[0]!, px[1]!, px[2]!], hidden: getComputedStyle(el).visibility === 'hidden' };
  }, selector);
}

const isGrey = (rgb: number[]): boolean => Math.max(...rgb) - Math.min(...rgb) <= 1;

describe('colour grading in the page runtime', () => {
  it('seek(t) resolves only once the newly loaded image is graded on the canvas', async () => {
    const page = await openReady(fx, '/swap.html');
    const first = await gradedPixel(page, '#img');
    expect(first.hidden).toBe(true);
    expect(isGrey(first.rgb)).toBe(true);
    const blueGrey = first.rgb[0]!;
    await page.evaluate(() => window.__seekframe!.seek(1.5));
    const second = await gradedPixel(page, '#img');
    expect(isGrey(second.rgb)).toBe(true);
    // Rec.709 luma of #e04020 (the slow image), not of #2050e0: the seek waited for it.
    expect(second.rgb[0]).toBe(Math.round(0.2126 * 0xe0 + 0.7152 * 0x40 + 0.0722 * 0x20));
    expect(second.rgb[0]).not.toBe(blueGrey);
    await page.close();
  });

  it('grades a <video> decoded in the page (preview mode)', async () => {
    const page = await openReady(fx, '/video.html?mode=preview');
    await page.evaluate(() => window.__seekframe!.seek(0.5));
    const { rgb, hidden } = await gradedPixel(page, '#v');
    expect(hidden).toBe(true);
    expect(isGrey(rgb), `graded video pixel ${rgb.join(',')}`).toBe(true);
    expect(rgb[0]).toBeGreaterThan(30);
    await page.close();
  });

  it('ready rejects naming a LUT file the page cannot fetch', async () => {
    const page = await fx.browser.newPage();
    await page.goto(`${fx.server.url}/no-lut.html`);
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain('luts/gone.cube');
    expect(message).toContain('HTTP 404');
    await page.close();
  });

  it('refuses a LUT from another origin without fetching it', async () => {
    const page = await fx.browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => void requests.push(request.url()));
    await page.goto(`${fx.server.url}/remote-lut.html`);
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain('is not a file of the project');
    expect(requests.filter((url) => url.includes('x.cube'))).toEqual([]);
    await page.close();
  });

  it('ready rejects when a referenced variable value is out of range (--variables)', async () => {
    const page = await fx.browser.newPage();
    await page.goto(`${fx.server.url}/bad-ref.html?vars=${encodeURIComponent('{"ev":9}')}`);
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain('"adjust.exposure" must be a number from -5 to 5 (the value of variable "ev" is 9)');
    await page.close();
  });
});
