import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findBrowser, launchBrowser, openCapturePage, type BrowserSession } from '@seekframe/engine';
import { loadRuntimeSource } from '@seekframe/producer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';

/**
 * `seekframe preview` serves fonts exactly as a render does: a Google Fonts link is answered from
 * the installed @fontsource packages and families named in CSS get local faces. Node's fetch is
 * stubbed to refuse anything but loopback, so the preview cannot reach Google even by mistake.
 */
let dir: string;
let preview: PreviewServer;
let session: BrowserSession;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return /^http:\/\/127\.0\.0\.1[:/]/.test(url) ? realFetch(input, init) : Promise.reject(new Error(`network used: ${url}`));
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-preview-fonts-'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html data-composition-id="p" data-width="320" data-height="90" data-duration="1"><head>
<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Poppins:wght@700&display=swap">
<style>#a { font: 700 30px Poppins } #b { font-family: 'Playfair Display', serif; font-size: 30px }</style></head>
<body><span id="a">Preview</span> <span id="b">Fonts</span></body></html>`,
  );
  preview = await startPreview({
    entryFile: path.join(dir, 'index.html'),
    port: 0,
    playerSource: '',
    appSource: '',
    runtimeSource: await loadRuntimeSource(),
  });
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 320, height: 90 });
});
afterAll(async () => {
  await session?.close();
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
  vi.unstubAllGlobals();
});

describe('seekframe preview fonts', () => {
  it('draws a Google Fonts family and a family named in CSS with the local @fontsource faces', async () => {
    const page = await openCapturePage(session, {
      url: new URL('index.html', preview.url).href,
      width: 320,
      height: 90,
      mode: 'screenshot',
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 30_000,
    });
    try {
      const cdp = await page.page.createCDPSession();
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument');
      const fontsOf = async (selector: string) => {
        const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
        return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts.map((f) => ({
          familyName: f.familyName,
          isCustomFont: f.isCustomFont,
        }));
      };
      expect(await fontsOf('#a')).toEqual([{ familyName: expect.stringMatching(/^Poppins/), isCustomFont: true }]);
      expect(await fontsOf('#b')).toEqual([{ familyName: expect.stringMatching(/^Playfair Display/), isCustomFont: true }]);
    } finally {
      await page.close();
    }
  });

  it('answers the font files through the preview origin', async () => {
    const css = await (
      await realFetch(
        new URL(`/__seekframe/remote?url=${encodeURIComponent('https://fonts.googleapis.com/css2?family=Poppins:wght@700')}`, preview.url),
      )
    ).text();
    const file = /url\((\/__seekframe\/fonts\/poppins\/poppins-latin-700-normal\.woff2)\)/.exec(css)?.[1];
    expect(file).toBeDefined();
    const font = await realFetch(new URL(file!, preview.url));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect((await realFetch(new URL('/__seekframe/fonts/poppins/..%2F..%2Fpackage.json', preview.url))).status).toBe(404);
  });
});
