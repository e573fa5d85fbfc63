import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameProbe, FrameProbeRequest } from '../src/runtime-types.js';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

const require = createRequire(import.meta.url);
let fx: RuntimeFixture;

beforeAll(async () => {
  fx = await startRuntimeFixture();
  fx.server.routes.set('/gsap.min.js', { file: require.resolve('gsap/dist/gsap.min.js') });
  // 160x90. A chart gridline (an SVG <line> of zero height), a 0-height rule drawn by its border,
  // a wrapper that paints nothing, a span holding a space, a box with a shadow, and text.
  fx.server.routes.set(
    '/probe.html',
    `<!doctype html><html data-composition-id="main" data-duration="4"><head>
<style>body{margin:0} #rule{position:absolute;left:10px;top:50px;width:100px;height:0;border-top:1px solid #000}
#shadow{position:absolute;left:100px;top:10px;width:20px;height:20px;background:#f00;box-shadow:4px 6px 0 2px #000}
#card{position:absolute;left:10px;top:60px;width:40px;height:20px;background:#123;color:#fff;font:16px sans-serif;white-space:nowrap;transition:color 1s}
#fade{color:#333;transition:color 2s} @keyframes turn{to{transform:rotate(360deg)}}</style>
<script src="/gsap.min.js"></script></head>
<body>
<svg id="chart" width="160" height="40" style="position:absolute;left:0;top:0"><line id="grid" x1="10" y1="20" x2="150" y2="20" stroke="#888" stroke-width="2"/></svg>
<div id="rule"></div>
<div id="empty" style="position:absolute;left:0;top:0;width:160px;height:90px"><span id="space"> </span></div>
<div id="shadow"></div>
<div id="green" style="position:absolute;left:130px;top:40px;width:10px;height:10px;background:#0f0"></div>
<div id="halo" style="position:absolute;left:60px;top:60px;width:10px;height:10px;background:#00f;animation:turn 60s steps(12) infinite"></div>
<div id="card">Too long for it</div>
<p id="fade" style="position:absolute;left:120px;top:60px;margin:0;font:12px sans-serif">hi</p>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#shadow', { x: 10, duration: 2 });
  window.__timelines = { main: tl };
  // A script that marks the frame on an element every seek: no animated value of it.
  window.__seekframe.onSeek((t) => document.querySelector('#halo').setAttribute('data-frame', String(Math.round(t * 30))));
</script></body></html>`,
  );
});
afterAll(async () => fx?.close());

const probe = (page: Awaited<ReturnType<typeof openReady>>, request: FrameProbeRequest): Promise<FrameProbe> =>
  page.evaluate((r) => window.__seekframe!.probeFrame(r), request);

describe('__seekframe.probeFrame()', () => {
  it('gives painted bounds: an SVG line by its stroke, a 0-height rule by its border, a shadow; an empty wrapper paints nothing', async () => {
    const page = await openReady(fx, '/probe.html');
    const { targets } = await probe(page, {
      targets: ['#grid', '#rule', '#shadow', '#empty', '#space', '#nothing', '#green'].map((selector) => ({ selector, hosts: [] })),
    });
    // Half the stroke on every side (as far as a square or round cap would reach).
    expect(targets[0]!.box).toEqual({ x: 9, y: 19, width: 142, height: 2 });
    expect(targets[1]!.box).toEqual({ x: 10, y: 50, width: 100, height: 1 });
    // The shadow (offset 4,6, spread 2) reaches 6 px past the right edge and 8 past the bottom.
    expect(targets[2]!.box).toEqual({ x: 100, y: 10, width: 26, height: 28 });
    expect(targets[3]!.box).toBeNull();
    expect(targets[4]!.box).toBeNull();
    expect(targets[5]).toBeNull();
    // A background whose last channel is 0 (rgb(0, 255, 0)) is opaque, not transparent.
    expect(targets[6]!.box).toEqual({ x: 130, y: 40, width: 10, height: 10 });
    await page.close();
  });

  it('gives a digest of the animated values that changes with them, and only with them', async () => {
    const page = await openReady(fx, '/probe.html');
    const at = async (t: number) => {
      await page.evaluate((s) => window.__seekframe!.seek(s), t);
      return (
        await probe(page, {
          targets: [
            { selector: '#shadow', hosts: [], properties: ['x'] },
            { selector: '#rule', hosts: [] },
            { selector: '#halo', hosts: [], properties: ['transform'] },
          ],
        })
      ).targets;
    };
    const [a, b, c] = [await at(0.5), await at(1.5), await at(3)];
    expect(a[0]!.values).not.toBe(b[0]!.values);
    expect(b[0]!.box!.x).toBeGreaterThan(a[0]!.box!.x);
    expect(a[1]!.values).toBe(c[1]!.values);
    // A minute-long stepped rotation has not stepped within 3 s, whatever a script writes on the element.
    expect(a[2]!.values).toBe(c[2]!.values);
    await page.close();
  });

  it('lists text blocks with their lines, colour, box and whether they move', async () => {
    const page = await openReady(fx, '/probe.html');
    const { texts } = await probe(page, { targets: [], text: true, moving: [{ selector: '#fade', hosts: [] }] });
    const card = texts.find((t) => t.selector === '#card')!;
    expect(card).toMatchObject({ text: 'Too long for it', color: [255, 255, 255, 1], opacity: 1, moving: false, covered: false });
    expect(card.box).toMatchObject({ x: 10, y: 60, width: 40, height: 20, clips: false, label: '<div#card>' });
    expect(card.lines[0]!.width).toBeGreaterThan(40);
    expect(texts.find((t) => t.selector === '#fade')).toMatchObject({ moving: true, box: null, color: [0x33, 0x33, 0x33, 1] });
    await page.close();
  });
});

describe('__seekframe.hideText()', () => {
  it('makes every text fill transparent and back, without starting or cancelling a CSS transition', async () => {
    const page = await openReady(fx, '/probe.html');
    const colours = () => page.evaluate(() => ['#card', '#fade'].map((s) => getComputedStyle(document.querySelector(s)!).color));
    const transitions = () => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition).length);
    expect(await colours()).toEqual(['rgb(255, 255, 255)', 'rgb(51, 51, 51)']);
    await page.evaluate(() => window.__seekframe!.hideText(true));
    expect(await colours()).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    expect(await transitions()).toBe(0);
    await page.evaluate(() => window.__seekframe!.hideText(false));
    expect(await colours()).toEqual(['rgb(255, 255, 255)', 'rgb(51, 51, 51)']);
    expect(await transitions()).toBe(0);
    // Nothing of it stays in what the timeline inspection lists.
    await page.evaluate(() => window.__seekframe!.seek(1));
    const inspection = await page.evaluate(() => window.__seekframe!.inspectTimeline());
    expect(inspection.animations.map((a) => a.target.selector).sort()).toEqual(['#halo', '#shadow']);
    await page.close();
  });
});
