import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { decodeFrames, probe } from '../../producer/test/helpers/media-tools.js';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';
import { EDIT_INDEX, EDIT_SUB, writeEditProject } from './support/studio-edit-project.js';
import { readBits } from './support/studio-project.js';

let dir: string;
let preview: PreviewServer;
let session: BrowserSession;
let page: Page;
const index = (): string => path.join(dir, 'index.html');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-studio-edit-'));
  await writeEditProject(dir);
  preview = await startPreview({
    entryFile: index(),
    port: 0,
    playerSource: (await bundlePlayer({ write: false })) as string,
    appSource: (await bundlePreviewApp({ write: false })) as string,
    runtimeSource: (await bundleRuntime({ write: false })) as string,
    debounceMs: 100,
    env: {},
    renderContext: {},
  });
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1280, height: 900 });
  page = await session.browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await open('');
});

afterAll(async () => {
  await session?.close();
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Opens the studio at `query` and waits until its timeline shows the clips and the lanes are read. */
async function open(query: string): Promise<void> {
  await page.goto(new URL(query, preview.url).href, { waitUntil: 'load' });
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent === 'ready' && document.querySelector('.tl-clip') !== null,
    {
      timeout: 30_000,
    },
  );
  await page.click('#view-100');
}

const reloads = (): Promise<number> => page.$eval('body', (b) => Number((b as HTMLElement).dataset.reloads));

/** Waits for the live reload that follows a write (the file watcher's event), and for its timeline. */
async function reloadedAfter(count: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset.reloads) > n, { timeout: 30_000 }, count);
}

/** A block's time span as the timeline draws it. */
function span(key: string): Promise<{ start: number; end: number }> {
  return page.$eval(`.tl-clip[data-key="${key}"]`, (el) => ({
    start: Number((el as HTMLElement).dataset.start),
    end: Number((el as HTMLElement).dataset.end),
  }));
}

async function pxPerSecond(): Promise<number> {
  return page.evaluate(() => {
    const ticks = [...document.querySelectorAll<HTMLElement>('.tl-tick.major')];
    return ticks[1]!.getBoundingClientRect().left - ticks[0]!.getBoundingClientRect().left;
  });
}

/** Drags a block (its middle, or an edge) by `seconds`, holding Alt (no snapping) unless `snap`. */
async function drag(key: string, seconds: number, options: { edge?: 'start' | 'end'; snap?: boolean } = {}): Promise<void> {
  const block = (await page.$(`.tl-clip[data-key="${key}"]`))!;
  await block.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  const box = (await block.boundingBox())!;
  const x = options.edge === 'start' ? box.x + 2 : options.edge === 'end' ? box.x + box.width - 2 : box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const dx = seconds * (await pxPerSecond());
  if (!options.snap) await page.keyboard.down('Alt');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 3 });
  await page.mouse.move(x + dx, y, { steps: 3 });
  await page.mouse.up();
  if (!options.snap) await page.keyboard.up('Alt');
}

/** Edits the file by dragging, and waits for the write and the reload it causes. */
async function edit(file: string, act: () => Promise<void>): Promise<string> {
  const before = await readFile(file, 'utf8');
  const count = await reloads();
  await act();
  await reloadedAfter(count);
  const after = await readFile(file, 'utf8');
  expect(after).not.toBe(before);
  return after;
}

async function key(combo: string[]): Promise<void> {
  for (const k of combo) await page.keyboard.down(k as never);
  for (const k of [...combo].reverse()) await page.keyboard.up(k as never);
}

async function goToFrame(frame: number): Promise<void> {
  await page.click('#frame', { clickCount: 3 });
  await page.keyboard.type(String(frame));
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (f) => (document.getElementById('frame') as HTMLInputElement).value === String(f) && document.activeElement?.id === 'frame',
    {},
    frame,
  );
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

describe('editing on the timeline, written to the source', () => {
  it('moves a block by N frames: data-start changes by N/fps and nothing else in the file; undo gives the file back byte for byte; redo', async () => {
    await goToFrame(12);
    const after = await edit(index(), () => drag('intro', 0.3));
    expect(after).toBe(
      EDIT_INDEX.replace(
        'style="left:10px;width:60px;background:#3333aa" data-start="0" data-duration="1"',
        'style="left:10px;width:60px;background:#3333aa" data-start="0.3" data-duration="1"',
      ),
    );
    // The chain follows (title starts 0.5 s after intro ends), shown at the same frame.
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.tl-clip[data-key="title"]')?.dataset.start === '1.8');
    expect(await span('intro')).toEqual({ start: 0.3, end: 1.3 });
    expect(await page.$eval('#frame', (el) => (el as HTMLInputElement).value)).toBe('12');

    expect(await edit(index(), () => key(['Control', 'z']))).toBe(EDIT_INDEX);
    expect(await span('intro')).toEqual({ start: 0, end: 1 });
    expect(await edit(index(), () => page.click('#redo'))).toBe(after);
    expect(await edit(index(), () => page.click('#undo'))).toBe(EDIT_INDEX);

    // From the keyboard: the selected block moves a frame with "." (and "," back).
    await page.click('.tl-clip[data-key="intro"]');
    await page.waitForSelector('.tl-clip[data-key="intro"][aria-pressed="true"]');
    expect(await edit(index(), () => page.keyboard.press('.'))).toBe(
      EDIT_INDEX.replace('#3333aa" data-start="0"', '#3333aa" data-start="0.1"'),
    );
    expect(await edit(index(), () => page.keyboard.press(','))).toBe(EDIT_INDEX);
  });

  it("keeps a relative start's reference and changes its offset; trims an edge; edits a clip of a sub-composition in its own file", async () => {
    const moved = await edit(index(), () => drag('title', -0.2));
    expect(moved).toBe(EDIT_INDEX.replace('data-start="intro + 0.5"', 'data-start="intro + 0.3"'));
    expect(await edit(index(), () => key(['Control', 'z']))).toBe(EDIT_INDEX);

    const trimmed = await edit(index(), () => drag('title', 0.4, { edge: 'end' }));
    expect(trimmed).toBe(EDIT_INDEX.replace('data-start="intro + 0.5" data-duration="1"', 'data-start="intro + 0.5" data-duration="1.4"'));
    const both = await edit(index(), () => drag('title', 0.2, { edge: 'start' }));
    expect(both).toBe(EDIT_INDEX.replace('data-start="intro + 0.5" data-duration="1"', 'data-start="intro + 0.7" data-duration="1.2"'));
    await edit(index(), () => key(['Control', 'z']));
    expect(await edit(index(), () => key(['Control', 'z']))).toBe(EDIT_INDEX);

    const sub = path.join(dir, 'sub.html');
    expect(await span('sub/dot')).toEqual({ start: 0.5, end: 1.5 });
    expect(await edit(sub, () => drag('sub/dot', 0.5))).toBe(EDIT_SUB.replace('data-start="0.5"', 'data-start="1"'));
    expect(await readFile(index(), 'utf8')).toBe(EDIT_INDEX);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.tl-clip[data-key="sub/dot"]')?.dataset.start === '1');
    expect(await edit(sub, () => key(['Control', 'z']))).toBe(EDIT_SUB);
  });

  it('never overwrites a file that changed on disk (409), writes only timing attributes of project HTML files, and only for its own page', async () => {
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      page.evaluate(
        async (b, h) => {
          const res = await fetch('/__seekframe/studio/edits', {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...h },
            body: JSON.stringify(b),
          });
          return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
        },
        body as never,
        headers,
      );
    const source = await page.evaluate(async () => (await fetch('/__seekframe/studio/source.json')).json() as Promise<{ hash: string }>);
    const change = { line: 14, column: 1, attribute: 'data-start', value: '0.2' };
    expect(EDIT_INDEX.split('\n')[13]).toMatch(/^<div id="intro"/);
    const stale = await call({ hash: '0'.repeat(64), changes: [change] });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.code).toBe('source-changed');
    expect(await readFile(index(), 'utf8')).toBe(EDIT_INDEX);

    for (const [body, code] of [
      [{ hash: source.hash, changes: [{ ...change, attribute: 'onclick', value: 'x' }] }, 'invalid-edit'],
      [{ hash: source.hash, changes: [{ ...change, value: '1" onload="alert(1)' }] }, 'invalid-edit'],
      [{ hash: source.hash, changes: [{ ...change, line: 1 }] }, 'invalid-edit'],
      [{ file: '../index.html', hash: source.hash, changes: [change] }, 'invalid-edit'],
      [{ file: 'sub.css', hash: source.hash, changes: [change] }, 'invalid-edit'],
      [{ file: 'node_modules/x/index.html', hash: source.hash, changes: [change] }, 'invalid-edit'],
      [{ hash: source.hash, changes: [change], extra: 1 }, 'invalid-body'],
    ] as const) {
      const answer = await call(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error?.code, JSON.stringify(body)).toBe(code);
    }
    const foreign = await fetch(new URL('/__seekframe/studio/edits', preview.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://example.test' },
      body: JSON.stringify({ hash: source.hash, changes: [change] }),
    });
    expect(foreign.status).toBe(403);
    const huge = await page.evaluate(async () => {
      const res = await fetch('/__seekframe/studio/edits', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"hash":"${'a'.repeat(2 * 1024 * 1024)}"}`,
      });
      return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
    });
    expect(huge).toEqual({ status: 413, code: 'body-too-large' });
    expect(await readFile(index(), 'utf8')).toBe(EDIT_INDEX);
  });

  it('selects the topmost clip under a click on the picture, Alt-click the one stacked below it; arrow keys still step frames', async () => {
    await goToFrame(15);
    const click = async (x: number, y: number, alt = false): Promise<string | undefined> => {
      const stage = (await page.evaluate(() => {
        const r = document.getElementById('player')!.shadowRoot!.querySelector('.stage')!.getBoundingClientRect();
        return { x: r.left, y: r.top };
      })) as { x: number; y: number };
      if (alt) await page.keyboard.down('Alt');
      await page.mouse.click(stage.x + x, stage.y + y);
      if (alt) await page.keyboard.up('Alt');
      return page.$eval('.tl-clip[aria-pressed="true"]', (el) => (el as HTMLElement).dataset.key).catch(() => undefined);
    };
    expect(await click(100, 70)).toBe('title');
    expect(await page.evaluate(() => (document.getElementById('player') as unknown as { outlineShown: boolean }).outlineShown)).toBe(true);
    expect(await page.$eval('#outline-note', (el) => (el as HTMLElement).hidden)).toBe(true);
    // chip (inside panel) at 220..260, 60..100
    expect(await click(240, 80)).toBe('chip');
    expect(await click(240, 80, true)).toBe('panel');
    expect(await click(240, 80, true)).toBe('chip');
    // Inside the sub-composition: its own clip.
    await goToFrame(8);
    expect(await click(30, 120)).toBe('sub/dot');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => (document.getElementById('frame') as HTMLInputElement).value === '9');
  });

  it('draws the waveform of a clip with sound (peaks from the server), and mutes, solos and hides tracks in the preview only', async () => {
    await page.waitForSelector('.tl-clip[data-key="tone"][data-waveform="drawn"] canvas');
    const wave = await page.evaluate(
      async () =>
        (await fetch('/__seekframe/studio/waveform?src=tone.wav')).json() as Promise<{ duration: number; rate: number; peaks: number[] }>,
    );
    expect(wave.rate).toBe(100);
    expect(wave.duration).toBeCloseTo(1, 2);
    expect(Math.max(...wave.peaks)).toBeGreaterThan(0.45);
    expect(Math.max(...wave.peaks)).toBeLessThan(0.55);
    expect(await page.evaluate(async () => (await fetch('/__seekframe/studio/waveform?src=../etc/passwd')).status)).toBe(404);

    const marked = (id: string, attr: string) =>
      page.evaluate(
        (i, a) =>
          (document.getElementById('player') as unknown as { contentWindow: Window }).contentWindow.document
            .getElementById(i)!
            .hasAttribute(a),
        id,
        attr,
      );
    await page.click('button[data-switch="mute"][data-row="|3"]');
    expect(await marked('tone', 'data-seekframe-studio-muted')).toBe(true);
    await page.click('button[data-switch="mute"][data-row="|3"]');
    await page.click('button[data-switch="solo"][data-row="|2"]');
    expect(await marked('tone', 'data-seekframe-studio-muted')).toBe(true);
    await page.click('button[data-switch="solo"][data-row="|2"]');
    expect(await marked('tone', 'data-seekframe-studio-muted')).toBe(false);
    await goToFrame(15);
    await page.click('button[data-switch="hide"][data-row="|0"]');
    expect(await marked('title', 'data-seekframe-studio-hidden')).toBe(true);
    const visibility = await page.evaluate(() => {
      const win = (document.getElementById('player') as unknown as { contentWindow: Window }).contentWindow;
      return win.getComputedStyle(win.document.getElementById('title')!).visibility;
    });
    expect(visibility).toBe('hidden');
    await page.click('button[data-switch="hide"][data-row="|0"]');
    expect(await marked('title', 'data-seekframe-studio-hidden')).toBe(false);
  });

  it('keeps the variables in the URL across a reload and saves them as the declared defaults with the smallest edit', async () => {
    await page.$eval('#variables input[name="accent"]', (el) => {
      (el as HTMLInputElement).value = '#00ff00';
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForFunction(() => location.hash.includes('vars='));
    expect(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('vars')).toBe('{"accent":"#00ff00"}');
    // A browser reload of the same address (fragment included).
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(
      () => document.getElementById('status')?.textContent === 'ready' && document.querySelector('.tl-clip') !== null,
    );
    expect(await page.$eval('#variables input[name="accent"]', (el) => (el as HTMLInputElement).value)).toBe('#00ff00');
    await page.waitForFunction(() => {
      const win = (document.getElementById('player') as unknown as { contentWindow: Window }).contentWindow;
      return getComputedStyle(win.document.getElementById('chip')!).backgroundColor === 'rgb(0, 255, 0)';
    });
    const saved = await edit(index(), () => page.click('#save-defaults'));
    expect(saved).toBe(EDIT_INDEX.replace('"default": "#aa3333"', '"default": "#00ff00"'));
    await writeFile(index(), EDIT_INDEX);
  });

  it('opens a sub-composition on its own and edits its file there', async () => {
    await open('?composition=sub.html');
    expect(await page.$$eval('.tl-clip', (els) => els.map((el) => (el as HTMLElement).dataset.key))).toEqual(['dot']);
    expect(await page.$eval('#crumbs', (el) => el.textContent)).toContain('sub.html');
    const sub = path.join(dir, 'sub.html');
    expect(await edit(sub, () => drag('dot', 0.3))).toBe(EDIT_SUB.replace('data-start="0.5"', 'data-start="0.8"'));
    expect(await edit(sub, () => key(['Control', 'z']))).toBe(EDIT_SUB);
    await open('');
  });

  it("renders after an edit: the clip is at its new time; a range render from the panel has exactly the range's frames", async () => {
    await goToFrame(0);
    await edit(index(), () => drag('intro', 1.2));
    await goToFrame(10);
    await page.keyboard.press('i');
    await goToFrame(15);
    await page.keyboard.press('o');
    expect(await page.$eval('#render-range-text', (el) => el.textContent)).toBe('work area: frames 10 to 15 (6 frames)');
    expect(await page.$eval('#render-range', (el) => (el as HTMLInputElement).checked)).toBe(true);
    await page.select('#render-quality', 'draft');
    await page.type('#render-name', 'range cut');
    await page.click('#render-start');
    const item = await page.waitForSelector('#render-history li:is([data-status="completed"], [data-status="failed"])', {
      timeout: 180_000,
    });
    const shown = await item!.evaluate((li) => ({
      status: (li as HTMLElement).dataset.status,
      file: li.querySelector('.path')?.textContent ?? '',
      error: li.querySelector('.error')?.textContent ?? '',
      size: li.querySelector('.size')?.textContent ?? '',
    }));
    expect(shown.error).toBe('');
    expect(shown.file).toBe('renders/range cut.mp4');
    expect(shown.size).toMatch(/^\d+ kB$/);
    const file = path.join(dir, shown.file);
    const video = (await probe(file)).streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({ width: 320, height: 180, nb_read_frames: '6' });
    const frames = await decodeFrames(file, 320, 180);
    // Each frame paints its composition frame number; intro now runs 1.2 s to 2.2 s.
    expect(frames.map((f) => readBits(f, 320, 3))).toEqual([10, 11, 12, 13, 14, 15]);
    const introShown = (f: Uint8Array): boolean => f[(70 * 320 + 40) * 3 + 2]! > 120 && f[(70 * 320 + 40) * 3]! < 90;
    expect(frames.map(introShown)).toEqual([false, false, true, true, true, true]);
    await edit(index(), () => key(['Control', 'z']));
  }, 240_000);
});
