import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { launchBrowser, type BrowserSession } from '../src/browser/launch-browser.js';
import { openCapturePage } from '../src/capture/capture-page.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { colourPage, servePages } from './serve-pages.js';

const W = 64;
const H = 36;

function pixel(png: Buffer, x: number, y: number): [number, number, number, number] {
  const image = PNG.sync.read(png);
  const i = (y * image.width + x) * 4;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, image.data[i + 3]!];
}

let server: Awaited<ReturnType<typeof servePages>>;
let browser: BrowserInfo;

beforeAll(async () => {
  browser = await findBrowser();
  server = await servePages({
    '/colour.html': colourPage(),
    '/transparent.html': colourPage({ transparent: true }),
    '/never-ready.html': colourPage({ readyNever: true }),
    '/no-runtime.html': colourPage({ noRuntime: true }),
    '/hangs.html': colourPage().replace('</body>', '<img src="/hang.png"></body>'),
    '/seek-throws.html': colourPage({ seekThrows: true }),
    '/script-error.html': colourPage({ scriptError: 'TypeError: chart is undefined' }),
  });
});
afterAll(async () => server.close());

describe.each(['beginframe', 'screenshot'] as const)('openCapturePage in %s mode', (mode) => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchBrowser({ browser, mode, width: W, height: H });
  });
  afterAll(async () => session.close());

  it('paints the colour that seek(t) sets, frame after frame', async () => {
    const page = await openCapturePage(session, {
      url: server.url('/colour.html'),
      width: W,
      height: H,
      mode,
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 10_000,
    });
    for (const t of [0.5, 1, 1.5, 1.5]) {
      const frame = await page.seekAndCapture(t);
      const image = PNG.sync.read(frame);
      expect([image.width, image.height]).toEqual([W, H]);
      const [r, g, b, a] = pixel(frame, 10, 10);
      expect(Math.abs(r - t * 100)).toBeLessThanOrEqual(1);
      expect(Math.abs(g - 50)).toBeLessThanOrEqual(1);
      expect(Math.abs(b - 200)).toBeLessThanOrEqual(1);
      expect(a).toBe(255);
    }
    expect(page.errors()).toEqual([]);
    await page.close();
  });

  it('captures JPEG frames', async () => {
    const page = await openCapturePage(session, {
      url: server.url('/colour.html'),
      width: W,
      height: H,
      mode,
      imageFormat: 'jpeg',
      jpegQuality: 80,
      transparent: false,
      readyTimeoutMs: 10_000,
    });
    const frame = await page.seekAndCapture(1);
    expect(frame.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    await page.close();
  });

  it('keeps alpha on a transparent page', async () => {
    const page = await openCapturePage(session, {
      url: server.url('/transparent.html'),
      width: W,
      height: H,
      mode,
      imageFormat: 'png',
      transparent: true,
      readyTimeoutMs: 10_000,
    });
    const frame = await page.seekAndCapture(2);
    expect(pixel(frame, 5, 5)).toEqual([200, 50, 200, 255]);
    expect(pixel(frame, W - 5, 5)[3]).toBe(0);
    await page.close();
  });

  it('names what the page still waits for on ready timeout', async () => {
    await expect(
      openCapturePage(session, {
        url: server.url('/never-ready.html'),
        width: W,
        height: H,
        mode,
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 500,
      }),
    ).rejects.toMatchObject({ code: 'ready-timeout', message: expect.stringContaining('font "Missing Sans", image /hero.png') });
  });

  it('names the request that keeps the page from loading', async () => {
    await expect(
      openCapturePage(session, {
        url: server.url('/hangs.html'),
        width: W,
        height: H,
        mode,
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 800,
      }),
    ).rejects.toMatchObject({ code: 'ready-timeout', message: expect.stringContaining('still loading http://127.0.0.1') });
  });

  it('says the runtime was not injected when window.__seekframe is missing', async () => {
    await expect(
      openCapturePage(session, {
        url: server.url('/no-runtime.html'),
        width: W,
        height: H,
        mode,
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 2_000,
      }),
    ).rejects.toMatchObject({ code: 'runtime-missing', message: expect.stringContaining('runtime was not injected') });
  });

  it('reports a seek that throws with the frame', async () => {
    const page = await openCapturePage(session, {
      url: server.url('/seek-throws.html'),
      width: W,
      height: H,
      mode,
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 5_000,
    });
    await expect(page.seekAndCapture(0.25, 7)).rejects.toMatchObject({
      code: 'page-script-error',
      message: expect.stringMatching(/frame 7 \(t=0\.25s\).*boom at 0\.25/),
    });
    await page.close();
  });
});

describe('full Chromium', () => {
  it('captures in screenshot mode and refuses beginframe mode with the fix', async () => {
    const chromium = await findBrowser({ env: { ...process.env, SEEKFRAME_BROWSER: '/usr/bin/chromium' } });
    await expect(launchBrowser({ browser: chromium, mode: 'beginframe', width: W, height: H })).rejects.toMatchObject({
      code: 'beginframe-unsupported',
      message: expect.stringContaining('screenshot capture mode'),
    });
    const session = await launchBrowser({ browser: chromium, mode: 'screenshot', width: W, height: H });
    try {
      const page = await openCapturePage(session, {
        url: server.url('/colour.html'),
        width: W,
        height: H,
        mode: 'screenshot',
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 10_000,
      });
      const frame = await page.seekAndCapture(0.7);
      expect(PNG.sync.read(frame).width).toBe(W);
      expect(pixel(frame, 3, 3).slice(0, 3)).toEqual([70, 50, 200]);
    } finally {
      await session.close();
    }
  });
});

describe('author script errors', () => {
  it('fails the frame when the runtime reports script errors, unless told not to', async () => {
    const session = await launchBrowser({ browser, mode: 'screenshot', width: W, height: H });
    try {
      const opts = {
        url: server.url('/script-error.html'),
        width: W,
        height: H,
        mode: 'screenshot',
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 5_000,
      } as const;
      const strict = await openCapturePage(session, opts);
      await expect(strict.seekAndCapture(0.1, 1)).rejects.toMatchObject({
        code: 'page-script-error',
        message: expect.stringContaining('TypeError: chart is undefined'),
      });
      const lenient = await openCapturePage(session, { ...opts, failOnScriptErrors: false });
      expect(PNG.sync.read(await lenient.seekAndCapture(0.1, 1)).width).toBe(W);
    } finally {
      await session.close();
    }
  });
});

describe('beginframe specifics', () => {
  it('gives identical frames for the same time, flagging a reused buffer', async () => {
    const session = await launchBrowser({ browser, mode: 'beginframe', width: W, height: H });
    try {
      const page = await openCapturePage(session, {
        url: server.url('/colour.html'),
        width: W,
        height: H,
        mode: 'beginframe',
        imageFormat: 'png',
        transparent: false,
        readyTimeoutMs: 5_000,
      });
      const first = await page.seekAndCaptureFrame(1);
      const same = await page.seekAndCaptureFrame(1);
      expect(first.reused).toBe(false);
      // Chromium decides whether it sends pixels (it often does even without damage); either way
      // the frame must be the same, and a reused frame is the very previous buffer.
      expect(typeof same.reused).toBe('boolean');
      if (same.reused) expect(same.data).toBe(first.data);
      else expect(PNG.sync.read(same.data).data.equals(PNG.sync.read(first.data).data)).toBe(true);
      expect(pixel(same.data, 1, 1)[0]).toBe(100);
      await page.close();
    } finally {
      await session.close();
    }
  });

  it('fails with browser-crashed naming the frame when the browser dies', async () => {
    const session = await launchBrowser({ browser, mode: 'screenshot', width: W, height: H });
    const page = await openCapturePage(session, {
      url: server.url('/colour.html'),
      width: W,
      height: H,
      mode: 'screenshot',
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 5_000,
    });
    session.browser.process()?.kill('SIGKILL');
    await expect(page.seekAndCapture(0.5, 3)).rejects.toMatchObject({
      code: 'browser-crashed',
      message: expect.stringContaining('frame 3 (t=0.5s)'),
    });
    await session.close();
  });
});

describe('openCapturePage in canvas mode (HTML-in-canvas)', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchBrowser({ browser, mode: 'canvas', width: W, height: H });
  });
  afterAll(async () => session.close());

  const open = (url: string, more: Partial<Parameters<typeof openCapturePage>[1]> = {}) =>
    openCapturePage(session, {
      url,
      width: W,
      height: H,
      mode: 'canvas',
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 10_000,
      ...more,
    });

  it('hands over the colour that seek(t) sets as raw BGRA, and as I420 (BT.709 limited range), frame after frame', async () => {
    expect(browser.supportsCanvasCapture).toBe(true);
    const bgra = await open(server.url('/colour.html'));
    const i420 = await open(server.url('/colour.html'), { canvasPixels: 'i420' });
    for (const t of [0.5, 1, 1.5, 1.5]) {
      const frame = await bgra.seekAndCapture(t);
      expect(frame.length).toBe(W * H * 4);
      const at = (10 * W + 10) * 4;
      expect(Math.abs(frame[at + 2]! - t * 100), `red at ${t}`).toBeLessThanOrEqual(1);
      expect(Math.abs(frame[at + 1]! - 50)).toBeLessThanOrEqual(1);
      expect(Math.abs(frame[at]! - 200)).toBeLessThanOrEqual(1);
      expect(frame[at + 3]).toBe(255);
      const planes = await i420.seekAndCapture(t);
      expect(planes.length).toBe((W * H * 3) / 2);
      const [r, g, b] = [t * 100, 50, 200];
      const y = (47 * r + 157 * g + 16 * b + 4224) >> 8;
      expect(Math.abs(planes[10 * W + 10]! - y), `luma at ${t}`).toBeLessThanOrEqual(1);
    }
    expect(bgra.errors()).toEqual([]);
    await Promise.all([bgra.close(), i420.close()]);
  });

  it('waits for the page as the other modes do: ready timeouts name what is pending, seek errors name the frame', async () => {
    await expect(open(server.url('/never-ready.html'), { readyTimeoutMs: 500 })).rejects.toMatchObject({
      code: 'ready-timeout',
      message: expect.stringContaining('font "Missing Sans", image /hero.png'),
    });
    await expect(open(server.url('/no-runtime.html'), { readyTimeoutMs: 2_000 })).rejects.toMatchObject({ code: 'runtime-missing' });
    const page = await open(server.url('/seek-throws.html'));
    await expect(page.seekAndCapture(0.25, 7)).rejects.toMatchObject({
      code: 'page-script-error',
      message: expect.stringMatching(/frame 7 \(t=0\.25s\).*boom at 0\.25/),
    });
    await page.close();
  });

  it('keeps alpha on a transparent page: what the page leaves unpainted stays clear in the BGRA frame', async () => {
    const page = await open(server.url('/transparent.html'), { transparent: true });
    const frame = await page.seekAndCapture(2);
    expect(frame.length).toBe(W * H * 4);
    const bgraAt = (x: number, y: number): number[] => [...frame.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)];
    expect(bgraAt(5, 5)).toEqual([200, 50, 200, 255]);
    expect(bgraAt(W - 5, 5)[3]).toBe(0);
    expect(page.errors()).toEqual([]);
    await page.close();
  });
});
