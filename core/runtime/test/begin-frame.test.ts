import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { bundleRuntime } from '../scripts/bundle.mjs';
import { ffmpeg } from './support/ffmpeg.js';
import { startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { configFromQuery } from './support/runtime-fixture.js';

// In beginframe capture the compositor produces frames only when asked. ready and seek() must
// therefore resolve without any frame being drawn (no real rAF, no decode tied to a commit).
const SHELL = '/usr/bin/chromium-headless-shell';
let server: FixtureServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-bf-'));
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=8x8', '-frames:v', '1', path.join(dir, 'blue.png')]);
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=lime:s=8x8', '-frames:v', '1', path.join(dir, 'lime.png')]);
  server = await startFixtureServer({ runtimeSource: (await bundleRuntime({ write: false })) as string, configFor: configFromQuery });
  server.routes.set('/blue.png', { file: path.join(dir, 'blue.png') });
  server.routes.set('/lime.png', { file: path.join(dir, 'lime.png'), delayMs: 200 });
  server.routes.set(
    '/bf.html',
    `<!doctype html><html data-duration="2"><head><style>body{margin:0;background:#fff}img{width:160px;height:90px;display:block}</style></head>
<body><img id="i" src="/blue.png"><script>
  let n = 0;
  function loop() { n++; requestAnimationFrame(loop); }
  requestAnimationFrame(loop);
  window.__seekframe.onSeek((t) => { document.getElementById('i').src = t >= 1 ? '/lime.png' : '/blue.png'; });
</script></body></html>`,
  );
  browser = await puppeteer.launch({
    executablePath: SHELL,
    headless: true,
    userDataDir: path.join(dir, 'profile'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--deterministic-mode',
      '--enable-begin-frame-control',
      '--run-all-compositor-stages-before-draw',
      '--disable-new-content-rendering-timeout',
      '--disable-threaded-animation',
      '--disable-threaded-scrolling',
      '--disable-checker-imaging',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function beginFrameTarget(url: string): Promise<{ page: Page; cdp: CDPSession }> {
  const browserCdp = await browser.target().createCDPSession();
  const { targetId } = await browserCdp.send('Target.createTarget', { url: 'about:blank', enableBeginFrameControl: true });
  const target = await browser.waitForTarget((t) => (t as unknown as { _targetId: string })._targetId === targetId);
  const page = (await target.page()) as Page;
  const cdp = await target.createCDPSession();
  await page.setViewport({ width: 160, height: 90 });
  await cdp.send('HeadlessExperimental.enable');
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return { page, cdp };
}

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not resolve in ${ms} ms`)), ms)),
  ]);
}

/** PNGs made by ffmpeg go through YUV, so allow a couple of levels of rounding. */
function near(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => Math.abs(v - (b[i] as number)) <= 3);
}

async function capturePixel(cdp: CDPSession, page: Page): Promise<number[]> {
  const frame = await cdp.send('HeadlessExperimental.beginFrame', { screenshot: { format: 'png' } });
  if (!frame.screenshotData) throw new Error('beginFrame produced no screenshot');
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    return [...ctx.getImageData(80, 45, 1, 1).data.slice(0, 3)];
  }, frame.screenshotData);
}

describe('beginframe capture', () => {
  it('resolves ready and seek without the compositor drawing, and the next beginFrame shows the frame', async () => {
    const { page, cdp } = await beginFrameTarget(`${server.url}/bf.html`);
    await within(
      10_000,
      page.evaluate(() => window.__seekframe!.ready),
      'ready',
    );
    await within(
      10_000,
      page.evaluate(() => window.__seekframe!.seek(0.5)),
      'seek(0.5)',
    );
    expect(near(await capturePixel(cdp, page), [0, 0, 255])).toBe(true);
    await within(
      10_000,
      page.evaluate(() => window.__seekframe!.seek(1.5)),
      'seek(1.5)',
    );
    expect(near(await capturePixel(cdp, page), [0, 255, 0])).toBe(true);
    await page.close();
  });
});
