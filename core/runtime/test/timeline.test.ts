import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineInspection } from '../src/runtime-types.js';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

const require = createRequire(import.meta.url);
let fx: RuntimeFixture;

const HEAD =
  '<style>body{margin:0}div{position:absolute;width:10px;height:10px;background:red}</style><script src="/gsap.min.js"></script>';
/** A captions variable `talk` whose default transcript has two segments: 0.5-1 s and 3-3.5 s. */
const TALK = JSON.stringify([
  {
    id: 'talk',
    type: 'captions',
    label: 'Talk',
    default: [
      { text: 'Hi', start: 0.5, end: 1 },
      { text: 'Bye', start: 3, end: 3.5 },
    ],
  },
]);

beforeAll(async () => {
  fx = await startRuntimeFixture();
  fx.server.routes.set('/gsap.min.js', { file: require.resolve('gsap/dist/gsap.min.js') });
  fx.server.routes.set(
    '/timeline.html',
    `<!doctype html><html data-composition-id="main" data-duration="4" data-composition-variables='${TALK}'><head>${HEAD}
<style>@keyframes pop{from{opacity:0}to{opacity:1}} #baked{animation:pop 0s forwards} #early{animation:pop 1s 0.5s both}</style></head>
<body>
<div id="box"></div>
<div class="card"></div><div class="card"><span id="lost"></span></div>
<div id="baked"></div>
<div id="scene" data-start="2" data-duration="2"><div id="early"></div><p id="subs" data-captions="talk"></p></div>
<div id="child" data-composition-id="kid" data-composition-src="child.html" data-start="1" data-duration="2" style="width:40px;height:40px"></div>
<script>
  const tl = gsap.timeline({ paused: true, defaults: { ease: 'power2.out' } });
  tl.to('#box', { x: 100, opacity: 0.5, duration: 1 }, 0.5);
  tl.addLabel('hit', 1.5);
  const inner = gsap.timeline({ id: 'inner' });
  inner.to('#box', { rotation: 90, duration: 0.5, ease: 'sine.inOut' }).addLabel('spun');
  tl.add(inner, 2);
  window.__timelines = { main: tl };
  const forgot = gsap.timeline({ paused: true });
  forgot.to('.card:nth-of-type(3)', { y: 50, duration: 2 });
</script></body></html>`,
  );
  fx.server.routes.set(
    '/child.html',
    `<!doctype html><html data-composition-id="kid" data-duration="2" data-composition-variables='${TALK}'><head>${HEAD}</head><body><div id="dot"></div><p id="words" data-captions="talk"></p>
<script>const t = gsap.timeline({ paused: true }); t.to('#dot', { x: 20, duration: 1 }, 0.25); t.addLabel('pop', 0.5); window.__timelines = { kid: t };</script></body></html>`,
  );
});

afterAll(async () => {
  await fx?.close();
});

describe('__seekframe.inspectTimeline()', () => {
  let inspection: TimelineInspection;
  beforeAll(async () => {
    const page = await openReady(fx, '/timeline.html');
    inspection = await page.evaluate(() => window.__seekframe!.inspectTimeline());
    await page.close();
  });

  it('lists clips with selectors and resolved times, sub-composition clips shifted by their host', () => {
    const scene = inspection.clips.find((c) => c.selector === '#scene');
    expect(scene).toMatchObject({ kind: 'element', start: 2, end: 4, hosts: [] });
    const child = inspection.clips.find((c) => c.selector === '#child');
    expect(child).toMatchObject({ kind: 'composition', id: 'kid', start: 1, end: 3 });
  });

  it('gives a registered GSAP tween its timeline time and properties', () => {
    const box = inspection.animations.find((a) => a.target.selector === '#box');
    expect(box).toMatchObject({
      kind: 'gsap',
      name: '__timelines["main"]',
      registered: true,
      start: 0.5,
      end: 1.5,
      properties: 'x, opacity',
    });
  });

  it("gives each GSAP tween its ease (its own, else its timeline's default) and the nested timeline it sits in", () => {
    const tweens = inspection.animations.filter((a) => a.target.selector === '#box');
    expect(tweens.map(({ properties, ease, timeline, start, end }) => ({ properties, ease, timeline, start, end }))).toEqual([
      { properties: 'x, opacity', ease: 'power2.out', timeline: undefined, start: 0.5, end: 1.5 },
      { properties: 'rotation', ease: 'sine.inOut', timeline: 'inner', start: 2, end: 2.5 },
    ]);
  });

  it('lists GSAP labels in composition seconds: the root timeline, nested timelines and sub-compositions', () => {
    expect(inspection.labels).toEqual([
      { name: 'hit', time: 1.5, timeline: '__timelines["main"]' },
      { name: 'pop', time: 1.5, timeline: '[kid] __timelines["kid"]' },
      { name: 'spun', time: 2.5, timeline: '__timelines["main"] › inner' },
    ]);
  });

  it('marks a paused GSAP timeline that is not in window.__timelines, naming its target by a selector', () => {
    const lost = inspection.animations.filter((a) => a.registered === false);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ paused: true, start: 0, end: 2, properties: 'y' });
    expect(lost[0]!.target.selector).toBe('body > div.card:nth-of-type(3)');
  });

  it('reports a CSS animation of zero length and an entry animation that ends before its clip starts', () => {
    const baked = inspection.animations.find((a) => a.target.selector === '#baked');
    expect(baked).toMatchObject({ kind: 'css-animation', name: 'pop', duration: 0, start: 0, end: 0 });
    const early = inspection.animations.find((a) => a.target.selector === '#early');
    expect(early).toMatchObject({ kind: 'css-animation', start: 0.5, end: 1.5 });
    const scene = inspection.clips.findIndex((c) => c.selector === '#scene');
    expect(early!.clips).toEqual([scene]);
  });

  it('includes a sub-composition animation in top-level seconds, inside its host clip', () => {
    const dot = inspection.animations.find((a) => a.target.selector === '#dot');
    const host = inspection.clips.findIndex((c) => c.selector === '#child');
    expect(dot).toMatchObject({ start: 1.25, end: 2.25, registered: true });
    expect(dot!.target.hosts).toEqual(['#child']);
    expect(dot!.target.label).toBe('[kid] <div#dot>');
    expect(dot!.clips).toContain(host);
  });

  it('lists caption elements with their transcript segments in top-level seconds (not cut), and their clips', () => {
    const scene = inspection.clips.findIndex((c) => c.selector === '#scene');
    expect(inspection.captions).toContainEqual({
      label: '<p#subs>',
      selector: '#subs',
      hosts: [],
      variable: 'talk',
      segments: [
        { start: 0.5, end: 1 },
        { start: 3, end: 3.5 },
      ],
      clips: [scene],
    });
    const host = inspection.clips.findIndex((c) => c.selector === '#child');
    // The child's transcript, shifted by its host's start (1 s); the second segment lies past the host's end, which the check reports.
    expect(inspection.captions).toContainEqual({
      label: '[kid] <p#words>',
      selector: '#words',
      hosts: ['#child'],
      variable: 'talk',
      segments: [
        { start: 1.5, end: 2 },
        { start: 4, end: 4.5 },
      ],
      clips: [host],
    });
  });
});
