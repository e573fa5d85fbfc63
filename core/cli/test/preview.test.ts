import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';

const VARIABLES = [
  { id: 'title', type: 'string', label: 'Title', default: 'Hello', placeholder: 'Say something', maxLength: 20 },
  { id: 'size', type: 'number', label: 'Box size', default: 30, min: 10, max: 60, step: 5, unit: 'px' },
  { id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' },
  { id: 'show', type: 'boolean', label: 'Show box', default: true },
  {
    id: 'theme',
    type: 'enum',
    label: 'Theme',
    default: 'dark',
    options: [
      { value: 'dark', label: 'Dark' },
      { value: 'light', label: 'Light' },
    ],
  },
];

const INDEX = `<!doctype html>
<html data-composition-id="demo" data-width="160" data-height="90" data-duration="1"
  data-composition-variables='${JSON.stringify(VARIABLES)}'>
<head><link rel="stylesheet" href="style.css"></head>
<body><div id="box"></div><p id="title"></p>
<div id="late" data-start="5" data-duration="1"></div>
<div id="card" data-composition-id="card" data-composition-src="card.html" data-start="0" data-variable-values='{"label":"child"}' style="position:absolute;left:100px;top:60px;width:50px;height:20px"></div>
<script>
  const { accent, size, title } = window.__seekframe.getVariables();
  const box = document.getElementById('box');
  box.style.background = accent;
  box.style.width = box.style.height = size + 'px';
  document.getElementById('title').textContent = title;
</script></body></html>`;

const STYLE = (bg: string): string =>
  `html, body { margin: 0; width: 160px; height: 90px; background: ${bg}; overflow: hidden; }
#box { position: absolute; left: 10px; top: 10px; }
#title { position: absolute; left: 60px; top: 10px; margin: 0; color: #fff; font: 12px sans-serif; }`;

let dir: string;
let preview: PreviewServer;
let session: BrowserSession;
const reloads: string[][] = [];
let appSource: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-preview-'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'style.css'), STYLE('#102030'));
  await writeFile(
    path.join(dir, 'card.html'),
    `<!doctype html><html data-composition-id="card" data-width="50" data-height="20" data-duration="1"
  data-composition-variables='[{"id":"label","type":"string","label":"Label","default":"x"}]'><head></head>
<body><span id="label"></span><script>document.getElementById('label').textContent = window.__seekframe.getVariables().label;</script></body></html>`,
  );
  preview = await startPreview({
    entryFile: path.join(dir, 'index.html'),
    port: 0,
    playerSource: (await bundlePlayer({ write: false })) as string,
    // The page script bundled from src/preview/browser/preview-app.ts, as the build makes it.
    appSource: (appSource = (await bundlePreviewApp({ write: false })) as string),
    runtimeSource: (await bundleRuntime({ write: false })) as string,
    debounceMs: 100,
    onReload: (files) => reloads.push(files),
  });
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 800, height: 600 });
});

afterAll(async () => {
  await session?.close();
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

const url = (p: string): string => new URL(p, preview.url).href;

/** The composition inside the page's player: box colour and body background. */
function frameLook(page: Page): Promise<{ box: string; body: string; title: string; child: string }> {
  return page.evaluate(() => {
    const player = document.querySelector('seekframe-player') as unknown as { contentWindow: Window | null };
    const win = player.contentWindow;
    if (!win) return { box: '', body: '', title: '', child: '' };
    const child = win.document.querySelector('#card iframe') as HTMLIFrameElement | null;
    return {
      child: child?.contentDocument?.getElementById('label')?.textContent ?? '',
      box: win.getComputedStyle(win.document.getElementById('box') as Element).backgroundColor,
      body: win.getComputedStyle(win.document.body).backgroundColor,
      title: win.document.getElementById('title')?.textContent ?? '',
    };
  });
}

describe('seekframe preview routes', () => {
  it('serves project facts, lint findings and the injected entry, and answers bad requests with 4xx JSON', async () => {
    const project = (await (await fetch(url('/__seekframe/preview/project.json'))).json()) as {
      entry: string;
      width: number;
      duration: number;
      variables: Array<{ id: string }>;
    };
    expect(project).toMatchObject({ entry: '/index.html', width: 160, duration: 1 });
    expect(project.variables.map((v) => v.id)).toEqual(['title', 'size', 'accent', 'show', 'theme']);

    const lint = (await (await fetch(url('/__seekframe/preview/lint.json'))).json()) as {
      findings: Array<{ rule: string; file: string; severity: string }>;
      warnings: number;
    };
    expect(lint.findings.find((f) => f.rule === 'timing/after-end')).toMatchObject({ file: 'index.html', severity: 'warning' });
    // The count is the findings' own: as many as the warnings listed.
    expect(lint.warnings).toBe(lint.findings.filter((f) => f.severity === 'warning').length);

    const entry = await (await fetch(url('/index.html'))).text();
    expect(entry).toContain('"mode":"preview"');
    expect(entry).toContain('<div id="box">');

    // app.js is the bundled browser module, byte for byte (no string copy of it anywhere).
    const app = await fetch(url('/__seekframe/preview/app.js'));
    expect(app.headers.get('content-type')).toContain('javascript');
    expect(await app.text()).toBe(appSource);
    expect(appSource).toContain('src/preview/browser/preview-app.ts');

    const missing = await fetch(url('/__seekframe/preview/nothing'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not-found');
    const post = await fetch(url('/'), { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect((await fetch(url('/__seekframe/preview/project.json'))).status).toBe(200);
  });
});

describe('seekframe preview page in Chromium', () => {
  it('builds the variables panel from the declarations, shows lint findings, plays sub-compositions, updates the picture live and reloads on file edits', async () => {
    const page = await session.browser.newPage();
    await page.setViewport({ width: 800, height: 600 });
    await page.goto(preview.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', { timeout: 30_000 });
    await page.waitForSelector('#lint li[data-rule="timing/after-end"]');

    const panel = await page.evaluate(() => {
      const input = (name: string): HTMLInputElement => document.querySelector(`[name="${name}"]`) as HTMLInputElement;
      return {
        labels: [...document.querySelectorAll('#variables .field > span:first-child')].map((el) => el.textContent),
        title: { type: input('title').type, placeholder: input('title').placeholder, maxLength: input('title').maxLength },
        size: {
          type: input('size').type,
          min: input('size').min,
          max: input('size').max,
          step: input('size').step,
          unit: document.querySelector('[data-variable="size"] .unit')?.textContent,
        },
        accent: input('accent').type,
        show: { type: input('show').type, checked: input('show').checked },
        theme: [...(document.querySelector('select[name="theme"]') as HTMLSelectElement).options].map((o) => o.textContent),
      };
    });
    expect(panel).toEqual({
      labels: ['Title', 'Box size', 'Accent', 'Show box', 'Theme'],
      title: { type: 'text', placeholder: 'Say something', maxLength: 20 },
      size: { type: 'number', min: '10', max: '60', step: '5', unit: 'px' },
      accent: 'color',
      show: { type: 'checkbox', checked: true },
      theme: ['Dark', 'Light'],
    });

    const shot = async (): Promise<Buffer> => {
      const stage = await page.evaluateHandle(
        () => document.querySelector('seekframe-player')?.shadowRoot?.querySelector('.stage') as Element,
      );
      return Buffer.from(await stage.asElement()!.screenshot({ type: 'png' }));
    };
    expect(await frameLook(page)).toEqual({ box: 'rgb(255, 0, 0)', body: 'rgb(16, 32, 48)', title: 'Hello', child: 'child' });
    // Keyboard: two frames forward at the composition's 30 fps.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.getElementById('time')?.textContent?.startsWith('0.07 / 1.00'));
    const before = await shot();
    await page.evaluate(() => {
      const accent = document.querySelector('[name="accent"]') as HTMLInputElement;
      accent.value = '#00ff00';
      accent.dispatchEvent(new Event('change'));
      const title = document.querySelector('[name="title"]') as HTMLInputElement;
      title.value = 'Changed';
      title.dispatchEvent(new Event('input'));
    });
    await page.waitForFunction(() => {
      const win = (document.querySelector('seekframe-player') as unknown as { contentWindow: Window | null }).contentWindow;
      return win?.document.getElementById('title')?.textContent === 'Changed';
    });
    expect(await frameLook(page)).toEqual({ box: 'rgb(0, 255, 0)', body: 'rgb(16, 32, 48)', title: 'Changed', child: 'child' });
    expect((await shot()).equals(before)).toBe(false);

    // A real SSE client sees the reload the page gets.
    const controller = new AbortController();
    const events = await fetch(url('/__seekframe/preview/events'), { signal: controller.signal });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const reader = events.body!.getReader();
    await reader.read(); // ": connected"
    await writeFile(path.join(dir, 'style.css'), STYLE('#400000'));
    let text = '';
    while (!text.includes('event: reload')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('"files":["style.css"]');

    await page.waitForFunction(() => document.body.dataset.reloads === '1');
    await page.waitForFunction(() => {
      const win = (document.querySelector('seekframe-player') as unknown as { contentWindow: Window | null }).contentWindow;
      return win ? win.getComputedStyle(win.document.body).backgroundColor === 'rgb(64, 0, 0)' : false;
    });
    // The panel's values survive the reload.
    expect(await frameLook(page)).toEqual({ box: 'rgb(0, 255, 0)', body: 'rgb(64, 0, 0)', title: 'Changed', child: 'child' });
    expect(reloads.at(-1)).toEqual(['style.css']);
    await page.close();
  });
});
