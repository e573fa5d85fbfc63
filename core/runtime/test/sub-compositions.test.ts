import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

let fx: RuntimeFixture;

const CARD = `<!doctype html>
<html data-composition-id="card" data-width="80" data-height="45" data-duration="2"
  data-composition-variables='[{"id":"label","type":"string","label":"Label","default":"default"},{"id":"color","type":"color","label":"Color","default":"#ff0000"}]'>
<head><style>html,body{margin:0;background:transparent}.x{width:80px;height:45px}</style></head>
<body><div class="x"></div><script>
  const { label = '?', color = '#000000' } = window.__seekframe.getVariables();
  const x = document.querySelector('.x');
  x.textContent = label;
  x.style.background = color;
  window.__timelines = { card: { paused: () => true, totalTime: (t) => { x.dataset.timeline = String(t); } } };
  window.__seekframe.onSeek((t) => { x.dataset.seek = String(t); x.dataset.now = String(performance.now()); });
</script></body></html>`;

const PARENT = `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="4">
<head><style>body{margin:0;background:#fff}</style></head><body>
<div id="a" data-composition-id="card-a" data-composition-src="card.html" data-start="0" data-duration="2"
  data-variable-values='{"label":"AAA","color":"#00ff00"}' style="position:absolute;left:0;top:0;width:80px;height:45px"></div>
<div id="b" data-composition-id="card-b" data-composition-src="card.html" data-start="card-a"
  data-variable-values='{"label":"BBB","color":"#0000ff"}' style="position:absolute;left:80px;top:0;width:80px;height:45px"></div>
<div class="x" id="parent-x" style="position:absolute;top:60px">parent</div>
<div id="c" data-composition-id="card-c" data-composition-src="card.html?vars=%7B%22label%22%3A%22CLI%22%7D" data-start="0"
  style="position:absolute;left:0;top:80px;width:1px;height:1px"></div>
</body></html>`;

const level = (n: number, child?: { src: string; start: number }): string => `<!doctype html>
<html data-composition-id="level${n}" data-width="160" data-height="90" data-duration="${4 - n}"><head></head><body style="margin:0">
<p class="mark">level${n}</p>
${child ? `<div data-composition-id="inner${n}" data-composition-src="${child.src}" data-start="${child.start}" style="width:160px;height:60px"></div>` : ''}
<script>window.__seekframe.onSeek((t) => { document.querySelector('.mark').dataset.seek = String(t); });</script>
</body></html>`;

beforeAll(async () => {
  fx = await startRuntimeFixture();
  fx.server.routes.set('/card.html', CARD);
  fx.server.routes.set('/parent.html', PARENT);
  fx.server.routes.set('/nest/level1.html', level(1, { src: 'level2.html', start: 1 }));
  fx.server.routes.set('/nest/level2.html', level(2, { src: 'deeper/level3.html', start: 0.5 }));
  fx.server.routes.set('/nest/deeper/level3.html', level(3));
  fx.server.routes.set(
    '/no-runtime.html',
    `<!doctype html><html data-duration="1"><body><div data-composition-src="/raw.htm" data-composition-id="raw"></div></body></html>`,
  );
  fx.server.routes.set(
    '/thrower.html',
    `<!doctype html><html data-duration="1"><body><script>throw new Error('child broke');</script></body></html>`,
  );
  fx.server.routes.set(
    '/bad-child.html',
    `<!doctype html><html data-duration="1"><body><div data-composition-id="bad" data-composition-src="thrower.html" style="width:8px;height:8px"></div></body></html>`,
  );
  fx.server.routes.set('/raw.htm', '<!doctype html><p>no runtime here</p>');
});

afterAll(async () => {
  await fx?.close();
});

const open = (path: string): Promise<Page> => openReady(fx, path);

function childData(page: Page, host: string): Promise<Record<string, string | null>> {
  return page.evaluate((sel) => {
    const doc = document.querySelector<HTMLIFrameElement>(`${sel} iframe`)!.contentDocument!;
    const x = doc.querySelector<HTMLElement>('.x')!;
    return { text: x.textContent, seek: x.dataset.seek ?? null, timeline: x.dataset.timeline ?? null, now: x.dataset.now ?? null };
  }, host);
}

/** Screenshots may round a level or two depending on the colour pipeline. */
function expectColor(actual: number[], expected: number[]): void {
  expect(
    actual.map((v, i) => Math.abs(v - (expected[i] as number)) <= 3),
    `${actual} ~ ${expected}`,
  ).toEqual([true, true, true]);
}

async function pixel(page: Page, x: number, y: number): Promise<[number, number, number]> {
  const png = await page.screenshot({ type: 'png', encoding: 'base64' });
  return page.evaluate(
    async (data, px, py) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(px, py, 1, 1).data;
      return [d[0]!, d[1]!, d[2]!] as [number, number, number];
    },
    png,
    x,
    y,
  );
}

describe('sub-compositions', () => {
  it('runs the same file twice with its own DOM, variables and timeline, offset by the host start', async () => {
    const page = await open('/parent.html');
    expect((await childData(page, '#a')).text).toBe('AAA');
    expect((await childData(page, '#b')).text).toBe('BBB');
    // top-level (CLI) values never reach an instance, even if the server injected them into its page
    expect((await childData(page, '#c')).text).toBe('default');
    // the child's querySelector('.x') found its own element, the parent's .x is untouched
    expect(await page.$eval('#parent-x', (el) => el.textContent)).toBe('parent');
    expect(await page.evaluate(() => window.__seekframe!.getVariables())).toEqual({});
    await page.evaluate(() => window.__seekframe!.seek(1));
    expect(await childData(page, '#a')).toMatchObject({ seek: '1', timeline: '1', now: '1000' });
    expectColor(await pixel(page, 40, 20), [0, 255, 0]);
    expectColor(await pixel(page, 120, 20), [255, 255, 255]); // card-b not started yet: hidden
    await page.evaluate(() => window.__seekframe!.seek(2.5));
    // card-b starts right after card-a (2 s): local time 0.5
    expect(await childData(page, '#b')).toMatchObject({ seek: '0.5', timeline: '0.5', now: '500' });
    expectColor(await pixel(page, 120, 20), [0, 0, 255]);
    expectColor(await pixel(page, 40, 20), [255, 255, 255]);
    await page.close();
  });

  it('nests three deep, each level seeked to its own local time', async () => {
    const page = await open('/nest/level1.html');
    await page.evaluate(() => window.__seekframe!.seek(2));
    const seeks = await page.evaluate(() => {
      const l2 = document.querySelector('iframe')!.contentDocument!;
      const l3 = l2.querySelector('iframe')!.contentDocument!;
      return [document, l2, l3].map(
        (d) => `${d.querySelector('.mark')!.textContent}@${(d.querySelector('.mark') as HTMLElement).dataset.seek}`,
      );
    });
    expect(seeks).toEqual(['level1@2', 'level2@1', 'level3@0.5']);
    await page.close();
  });

  it("reports a child's author errors in the parent's errors(), named by instance id", async () => {
    const page = await open('/bad-child.html');
    const errors = await page.evaluate(() => window.__seekframe!.errors());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\[bad\] Error: child broke/);
    await page.close();
  });

  it('rejects ready, naming the file, when a sub-composition has no runtime', async () => {
    const page = await fx.browser.newPage();
    await page.goto(`${fx.server.url}/no-runtime.html`);
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain('/raw.htm');
    expect(message).toContain('without the Seekframe runtime');
    await page.close();
  });
});
