import { request } from 'node:http';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElementHandle, Page } from 'puppeteer-core';
import { PNG } from 'pngjs';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { decodeFrames, probe } from '../../producer/test/helpers/media-tools.js';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';
import { fileURLToPath } from 'node:url';
import { lineOf, readBits, STUDIO_FPS, STUDIO_HEIGHT, STUDIO_INDEX, STUDIO_WIDTH, writeStudioProject } from './support/studio-project.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../../..');
let dir: string;
let preview: PreviewServer;
let session: BrowserSession;
let page: Page;

beforeAll(async () => {
  // A fixed folder name: the studio's title, which the docs' screenshot shows.
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'seekframe-studio-')), 'my-film');
  await mkdir(dir);
  await writeStudioProject(dir);
  preview = await startPreview({
    entryFile: path.join(dir, 'index.html'),
    port: 0,
    playerSource: (await bundlePlayer({ write: false })) as string,
    appSource: (await bundlePreviewApp({ write: false })) as string,
    runtimeSource: (await bundleRuntime({ write: false })) as string,
    debounceMs: 100,
    // No PATH: the link comes from $EDITOR alone, whatever this machine has installed.
    env: { EDITOR: 'code --wait' },
    renderContext: {},
  });
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1280, height: 900 });
  page = await session.browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(preview.url, { waitUntil: 'load' });
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent === 'ready' && document.querySelectorAll('.tl-clip').length === 5,
    { timeout: 30_000 },
  );
  // The picture at its own pixels, so a screenshot of the player's stage reads the painted bits.
  await page.click('#view-100');
});

afterAll(async () => {
  await session?.close();
  await preview?.close();
  await rm(path.dirname(dir), { recursive: true, force: true });
});

interface Block {
  id: string;
  track: string;
  start: number;
  end: number;
  /** Measured on screen, in seconds: the block's left edge and width over the ruler's scale. */
  left: number;
  width: number;
  label: string;
}

function blocks(): Promise<Block[]> {
  return page.evaluate(() => {
    const content = document.getElementById('tl-content')!.getBoundingClientRect();
    const ticks = [...document.querySelectorAll<HTMLElement>('.tl-tick.major')];
    const pxPerSecond = ticks[1]!.getBoundingClientRect().left - ticks[0]!.getBoundingClientRect().left;
    return [...document.querySelectorAll<HTMLElement>('.tl-clip')].map((el) => {
      const box = el.getBoundingClientRect();
      return {
        id: el.dataset.clipId!,
        track: (el.parentElement as HTMLElement).dataset.track!,
        start: Number(el.dataset.start),
        end: Number(el.dataset.end),
        left: (box.left - content.left) / pxPerSecond,
        width: box.width / pxPerSecond,
        label: el.getAttribute('aria-label')!,
      };
    });
  });
}

/** The player's frame and time, and the frame index its picture shows (pixels of the player's stage at scale 1). */
async function playerFrame(): Promise<{ frame: string; time: number; painted: number }> {
  const stage = (await page.evaluateHandle(() =>
    document.getElementById('player')!.shadowRoot!.querySelector('.stage'),
  )) as ElementHandle<Element>;
  const png = PNG.sync.read(Buffer.from(await stage.screenshot({ type: 'png' })));
  expect(png.width).toBe(STUDIO_WIDTH);
  const state = await page.evaluate(() => ({
    frame: (document.getElementById('frame') as HTMLInputElement).value,
    time: (document.getElementById('player') as unknown as { currentTime: number }).currentTime,
  }));
  return { ...state, painted: readBits(png.data, png.width, 4) };
}

/** Waits until the player has settled on `frame` (its seek painted). */
async function waitForFrame(frame: number): Promise<void> {
  await page.waitForFunction(
    (f, fps) => {
      const player = document.getElementById('player') as unknown as { currentTime: number };
      return (document.getElementById('frame') as HTMLInputElement).value === String(f) && Math.abs(player.currentTime - f / fps) < 1e-9;
    },
    { timeout: 15_000 },
    frame,
    STUDIO_FPS,
  );
}

/** Clicks a block a quarter in from its left edge (badge overlaps the second half of title). */
async function clickBlock(id: string): Promise<void> {
  const block = (await page.$(`.tl-clip[data-clip-id="${id}"]`))!;
  // The page may be scrolled down to the render panel: bring the block into the viewport first.
  await block.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  const box = (await block.boundingBox())!;
  await page.mouse.click(box.x + box.width / 4, box.y + box.height / 2);
}

describe('seekframe preview studio in Chromium', () => {
  it('draws one block per clip at the starts and lengths the runtime resolved, one row per track, with accessible labels', async () => {
    const list = await blocks();
    const byId = Object.fromEntries(list.map((b) => [b.id, b]));
    // start-after-id chain (clip after intro, card after title), an offset (intro + 0.5), the
    // video's measured length (1.3 s) and the sub-composition's own length (1 s).
    const expected: Record<string, [string, number, number]> = {
      intro: ['0', 0, 1],
      title: ['0', 1.5, 2.5],
      badge: ['0', 2, 3],
      clip: ['1', 1, 2.3],
      card: ['2', 2.5, 3.5],
    };
    expect(Object.keys(byId).sort()).toEqual(Object.keys(expected).sort());
    for (const [id, [track, start, end]] of Object.entries(expected)) {
      const block = byId[id]!;
      expect(block.track, id).toBe(track);
      expect(block.start, id).toBeCloseTo(start, 6);
      expect(block.end, id).toBeCloseTo(end, 6);
      // On screen within a pixel at this zoom (about 200 px a second).
      expect(Math.abs(block.left - start), id).toBeLessThan(0.01);
      expect(Math.abs(block.width - (end - start)), id).toBeLessThan(0.01);
    }
    const rows = await page.$$eval('#tl-labels .tl-label > span', (els) => els.map((el) => el.textContent));
    expect(rows).toEqual(['Time', 'Track 0', 'Track 1', 'Track 2']);

    // The accessibility tree names every block by its id, kind, track and times.
    const tree = await page.accessibility.snapshot({ interestingOnly: true });
    const names: string[] = [];
    const walk = (node: { role: string; name?: string; children?: unknown[] } | null): void => {
      if (!node) return;
      if (node.role === 'button' && node.name) names.push(node.name);
      for (const child of (node.children ?? []) as Array<typeof node>) walk(child);
    };
    walk(tree as never);
    expect(names).toContain('title, clip on Track 0, 1.50 s to 2.50 s, frames 15 to 24');
    expect(names).toContain('clip, video on Track 1, 1.00 s to 2.30 s, frames 10 to 22');
    expect(names).toContain('card, sub-composition on Track 2, 2.50 s to 3.50 s, frames 25 to 34');
  });

  it('seeks to the clicked time on the ruler, snapped to the frame showing there', async () => {
    const point = await page.evaluate(() => {
      const ruler = document.getElementById('tl-ruler')!.getBoundingClientRect();
      const ticks = [...document.querySelectorAll<HTMLElement>('.tl-tick.major')];
      const zero = ticks[0]!.getBoundingClientRect().left;
      const pxPerSecond = ticks[1]!.getBoundingClientRect().left - zero;
      return { x: zero + 2.25 * pxPerSecond, y: ruler.top + ruler.height / 2 };
    });
    await page.mouse.click(point.x, point.y);
    await waitForFrame(22);
    expect(await playerFrame()).toEqual({ frame: '22', time: 2.2, painted: 22 });
  });

  it('steps exactly one frame with the arrows, one second with Shift, and jumps with Home/End and typed frames and timecodes', async () => {
    await page.focus('#tl-ruler');
    await page.keyboard.press('Home');
    await waitForFrame(0);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await waitForFrame(3);
    expect(await playerFrame()).toEqual({ frame: '3', time: 0.3, painted: 3 });
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.up('Shift');
    await waitForFrame(13);
    expect((await playerFrame()).painted).toBe(13);
    await page.keyboard.press('ArrowLeft');
    await waitForFrame(12);
    await page.keyboard.press('End');
    await waitForFrame(39);
    expect(await page.$eval('#timecode', (el) => (el as HTMLInputElement).value)).toBe('00:00:03:09');

    await page.click('#frame', { clickCount: 3 });
    await page.keyboard.type('17');
    await page.keyboard.press('Enter');
    await waitForFrame(17);
    await page.click('#timecode', { clickCount: 3 });
    await page.keyboard.type('00:00:02:05');
    await page.keyboard.press('Enter');
    await waitForFrame(25);
    await page.click('#timecode', { clickCount: 3 });
    await page.keyboard.type('nonsense');
    await page.keyboard.press('Enter');
    expect(await page.$eval('#timecode', (el) => el.getAttribute('aria-invalid'))).toBe('true');
    expect((await playerFrame()).frame).toBe('25');
  });

  it('works from the keyboard alone: Tab to a block, Enter selects it, brackets jump to its ends, Space plays and pauses, +/0 zoom', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let focused = '';
    for (let i = 0; i < 200 && focused !== 'intro'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.clipId ?? '');
    }
    expect(focused).toBe('intro');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tl-clip[data-clip-id="intro"][aria-pressed="true"]');
    // The playhead (frame 25) was outside intro: selecting it from the keyboard shows its first frame.
    await waitForFrame(0);
    await page.keyboard.press(']');
    await waitForFrame(9);
    await page.keyboard.press('[');
    await waitForFrame(0);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.getElementById('play')?.textContent === 'Pause');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.getElementById('play')?.textContent === 'Play');
    // Space played instead of clicking the focused block: it is still the selected one.
    expect(await page.$eval('.tl-clip[aria-pressed="true"]', (el) => (el as HTMLElement).dataset.clipId)).toBe('intro');
    await page.keyboard.press('+');
    expect(await page.$eval('#zoom-level', (el) => el.textContent)).toBe('1.5×');
    await page.keyboard.press('0');
    expect(await page.$eval('#zoom-level', (el) => el.textContent)).toBe('fit');
    await page.keyboard.press('Escape');
    expect(await page.$$('.tl-clip[aria-pressed="true"]')).toHaveLength(0);
  });

  it('inspects the selected block: outline in the player, timing and attributes, source line with an editor link, variables per instance, lint findings', async () => {
    await clickBlock('title');
    await page.waitForSelector('#inspector [data-attr="data-start"]');
    const shown = await page.evaluate(() => {
      const text = (selector: string): string => document.querySelector(`#inspector ${selector}`)?.textContent ?? '';
      const link = document.getElementById('open-source') as HTMLAnchorElement | null;
      return {
        start: text('[data-attr="data-start"]'),
        resolved: text('[data-resolved="start"]'),
        lengthFrom: text('[data-resolved="length-from"]'),
        id: text('[data-attr="id"]'),
        line: (document.querySelector('#inspector .source') as HTMLElement).dataset.line,
        href: link?.getAttribute('href'),
        linkText: link?.textContent,
      };
    });
    const line = lineOf(STUDIO_INDEX, '<div id="title"');
    expect(shown).toEqual({
      start: 'intro + 0.5',
      resolved: '1.500 s (frame 15)',
      lengthFrom: 'data-duration',
      id: 'title',
      line: String(line),
      href: `vscode://file${encodeURI(path.join(dir, 'index.html'))}:${line}:1`,
      linkText: `index.html:${line}:1`,
    });
    // The click landed inside the block: the player shows a frame of it, with the element outlined.
    const frame = Number((await playerFrame()).frame);
    expect(frame).toBeGreaterThanOrEqual(15);
    expect(frame).toBeLessThanOrEqual(24);
    const outline = await page.evaluate(() => {
      const highlight = document.getElementById('player')!.shadowRoot!.querySelector('.highlight') as HTMLElement;
      const stage = document.getElementById('player')!.shadowRoot!.querySelector('.stage')!.getBoundingClientRect();
      const r = highlight.getBoundingClientRect();
      return { hidden: highlight.hidden, left: r.left - stage.left, top: r.top - stage.top, width: r.width, height: r.height };
    });
    expect(outline).toEqual({ hidden: false, left: 80, top: 50, width: 60, height: 40 });
    // The docs show this state (docs/guide/studio.md).
    await page.click('#view-fit');
    await page.screenshot({ path: path.join(REPO, 'docs', 'public', 'studio.png') });
    await page.click('#view-100');

    // The sub-composition: variables resolved for this instance (host value + the file's default).
    await clickBlock('card');
    await page.waitForSelector('#inspector [data-variable="label"]');
    const card = await page.evaluate(() => ({
      label: document.querySelector('#inspector [data-variable="label"]')?.textContent,
      tint: document.querySelector('#inspector [data-variable="tint"]')?.textContent,
      values: document.querySelector('#inspector [data-attr="data-variable-values"]')?.textContent,
      lengthFrom: document.querySelector('#inspector [data-resolved="length-from"]')?.textContent,
    }));
    expect(card).toEqual({
      label: '"child"',
      tint: '"#00ff00"',
      values: '{"label":"child"}',
      lengthFrom: "the sub-composition's own length",
    });

    await clickBlock('clip');
    await page.waitForFunction(
      () => document.querySelector('#inspector [data-resolved="length-from"]')?.textContent === 'measured from the media file',
    );

    // The overlap warning lint reports on badge's tag is listed with it.
    await clickBlock('badge');
    await page.waitForSelector('#inspector .findings li[data-rule="timing/overlap"]');
  });

  it('renders from the panel through the local render path: an MP4 whose frame N is the frame the preview showed for N', async () => {
    await page.select('#render-quality', 'draft');
    await page.click('#render-start');
    const item = await page.waitForSelector('#render-history li[data-status="completed"], #render-history li[data-status="failed"]', {
      timeout: 180_000,
    });
    const { status, output, error } = await item!.evaluate((li) => ({
      status: (li as HTMLElement).dataset.status,
      output: li.querySelector('.path')?.textContent ?? '',
      error: li.querySelector('.error')?.textContent ?? '',
    }));
    expect(error).toBe('');
    expect(status).toBe('completed');
    // The panel names the file in the project, never an absolute path.
    expect(path.dirname(output)).toBe('renders');
    expect(path.basename(output)).toMatch(/^my-film-\d{8}-\d{6}\.mp4$/);

    const probed = await probe(path.join(dir, output));
    const video = probed.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({
      codec_name: 'h264',
      width: STUDIO_WIDTH,
      height: STUDIO_HEIGHT,
      pix_fmt: 'yuv420p',
      nb_read_frames: '40',
      r_frame_rate: '10/1',
    });
    expect(probed.duration).toBeCloseTo(4, 1);

    // Frame N of the file paints N, and so did the player at frame N (checked above for 3, 13, 22).
    const frames = await decodeFrames(path.join(dir, output), STUDIO_WIDTH, STUDIO_HEIGHT);
    for (const n of [0, 3, 12, 13, 22, 39]) expect(readBits(frames[n]!, STUDIO_WIDTH, 3), `frame ${n}`).toBe(n);
    for (const n of [5, 31]) {
      await page.click('#frame', { clickCount: 3 });
      await page.keyboard.type(String(n));
      await page.keyboard.press('Enter');
      await waitForFrame(n);
      expect((await playerFrame()).painted).toBe(readBits(frames[n]!, STUDIO_WIDTH, 3));
    }

    // Play it in the page.
    await page.click('#render-history li[data-status="completed"] button[data-action="play"]');
    await page.waitForFunction(() => {
      const v = document.querySelector('#render-output video') as HTMLVideoElement | null;
      return v !== null && v.readyState >= 1 && Math.abs(v.duration - 4) < 0.2;
    });
  }, 240_000);

  it('cancels a render from its Cancel button and leaves no half-written file', async () => {
    const before = await page.$$eval('#render-history li', (items) => items.length);
    await page.click('#render-start');
    await page.waitForFunction((n) => document.querySelectorAll('#render-history li').length > n, {}, before);
    const cancel = await page.waitForSelector('#render-history li:first-child button[data-action="cancel"]');
    await cancel!.click();
    const item = await page.waitForSelector('#render-history li:first-child:is([data-status="cancelled"], [data-status="completed"])', {
      timeout: 60_000,
    });
    const { status, output } = await item!.evaluate((li) => ({
      status: (li as HTMLElement).dataset.status,
      output: li.querySelector('.path')?.textContent ?? '',
    }));
    expect(status).toBe('cancelled');
    await expect(readFile(path.join(dir, output))).rejects.toMatchObject({ code: 'ENOENT' });
    // Only the finished render is in renders/: no temporary or partial file of the cancelled one.
    const finished = await page.$$eval('#render-history li[data-status="completed"] .path', (els) => els.map((el) => el.textContent ?? ''));
    expect((await readdir(path.join(dir, 'renders'))).sort()).toEqual(finished.map((file) => path.basename(file)).sort());
  }, 90_000);

  it('refuses bad settings with a code, and requests that are not from its own page', async () => {
    const bad = await page.evaluate(async () => {
      const res = await fetch('/__seekframe/studio/renders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fps: 1000 }),
      });
      return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid-options');
    expect(bad.body.error.message).toContain('fps');

    const url = new URL('/__seekframe/studio/renders', preview.url);
    const crossSite = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://example.test' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { error: { code: string } }).error.code).toBe('origin-refused');
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(403);
    // A DNS-rebinding page would send its own host name.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: url.port, path: '/__seekframe/studio/renders', headers: { host: `attacker.test:${url.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    expect((await fetch(new URL('/__seekframe/studio/renders/nope', preview.url))).status).toBe(404);
  });

  it('reloads on a file edit at the same frame, selection and zoom, with the new timing and the render marked stale', async () => {
    await clickBlock('title');
    expect(await page.$eval('.tl-clip[aria-pressed="true"]', (el) => (el as HTMLElement).dataset.clipId)).toBe('title');
    await page.click('#zoom-in');
    await page.click('#zoom-in');
    expect(await page.$eval('#zoom-level', (el) => el.textContent)).toBe('2×');
    await page.click('#frame', { clickCount: 3 });
    await page.keyboard.type('17');
    await page.keyboard.press('Enter');
    await waitForFrame(17);
    const reloads = Number(await page.$eval('body', (b) => b.dataset.reloads));

    // intro gets longer: everything chained after it moves by 0.2 s.
    await writeFile(
      path.join(dir, 'index.html'),
      STUDIO_INDEX.replace('data-start="0" data-duration="1"', 'data-start="0" data-duration="1.2"'),
    );
    await page.waitForFunction((n) => Number(document.body.dataset.reloads) > n, { timeout: 30_000 }, reloads);
    await waitForFrame(17);
    const byId = Object.fromEntries((await blocks()).map((b) => [b.id, b]));
    expect(byId.title!.start).toBeCloseTo(1.7, 6);
    expect(byId.clip!.start).toBeCloseTo(1.2, 6);
    expect(byId.card!.start).toBeCloseTo(2.7, 6);
    expect(await page.$eval('.tl-clip[aria-pressed="true"]', (el) => (el as HTMLElement).dataset.clipId)).toBe('title');
    expect(await page.$eval('#zoom-level', (el) => el.textContent)).toBe('2×');
    expect(await page.$eval('#inspector [data-resolved="start"]', (el) => el.textContent)).toBe('1.700 s (frame 17)');
    expect((await playerFrame()).painted).toBe(17);
    expect(await page.evaluate(() => location.hash)).toBe('#frame=17&clip=title&zoom=2');
    await page.waitForSelector('#render-history li[data-status="completed"][data-stale="true"] .badge');
    expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toContain('1.2');
  });
});
