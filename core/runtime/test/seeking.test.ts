import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

const require = createRequire(import.meta.url);
let fx: RuntimeFixture;

const HEAD = '<style>body{margin:0}div{position:absolute;top:0;left:0;width:10px;height:10px;background:red}</style>';

beforeAll(async () => {
  fx = await startRuntimeFixture();
  fx.server.routes.set('/gsap.min.js', { file: require.resolve('gsap/dist/gsap.min.js') });
  fx.server.routes.set(
    '/gsap.html',
    `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="4">
<head>${HEAD}<script src="/gsap.min.js"></script></head><body><div id="box"></div><div id="called"></div>
<div data-composition-id="scene2" data-start="1" data-duration="2"><div id="sbox"></div></div><div id="free"></div>
<script>
  // not registered and not paused: driven by GSAP's own ticker, which follows the virtual clock
  gsap.to('#free', { x: 100, duration: 2, ease: 'none' });
  const scene = gsap.timeline({ paused: true });
  scene.to('#sbox', { x: 100, duration: 1, ease: 'none' });
  window.calls = [];
  const tl = gsap.timeline({ paused: true });
  tl.to('#box', { x: 100, duration: 2, ease: 'none' });
  tl.call(() => window.calls.push('at-3'), [], 3);
  window.__timelines = { main: tl, scene2: scene };
</script></body></html>`,
  );
  fx.server.routes.set(
    '/css.html',
    `<!doctype html><html data-composition-id="main" data-duration="4"><head>${HEAD}
<style>@keyframes slide{from{left:0px}to{left:100px}} #css{animation:slide 2s linear forwards}
 .grow{animation:grow 1s linear both} @keyframes grow{from{width:0px}to{width:100px}}</style></head>
<body><div id="css"></div><div id="waapi"></div><div id="late"></div><div id="late-css"></div>
<script>
  document.getElementById('waapi').animate([{ opacity: 0 }, { opacity: 1 }], { duration: 2000, fill: 'forwards' });
  setTimeout(() => document.getElementById('late').animate([{ top: '0px' }, { top: '80px' }], { duration: 1000, fill: 'both' }), 1000);
  setTimeout(() => document.getElementById('late-css').classList.add('grow'), 2000);
</script></body></html>`,
  );
  fx.server.routes.set(
    '/clips.html',
    `<!doctype html><html data-composition-id="main" data-duration="4"><head>${HEAD}</head><body>
<div id="intro" data-start="0" data-duration="1"></div>
<div id="next" data-start="intro + 0.5" data-duration="1"></div>
<div id="after" class="clip" data-start="next"><span id="inner" style="visibility:visible">x</span></div>
<div id="always"></div>
<div id="scripted" data-start="3" data-duration="5"></div>
<script>document.getElementById('scripted').setAttribute('data-duration', '0.5');</script>
</body></html>`,
  );
  fx.server.routes.set(
    '/clock.html',
    `<!doctype html><html data-composition-id="main" data-duration="4"><head></head><body><canvas id="c" width="16" height="16"></canvas>
<script>
  window.ticks = 0; window.fired = [];
  setInterval(() => { window.ticks++; }, 100);
  setTimeout(() => window.fired.push(Date.now() - 1700000000000), 250);
  function loop(ts) {
    window.frame = { ts, perf: performance.now(), date: Date.now() - 1700000000000, newDate: new Date().getTime() - 1700000000000 };
    // draw a bar whose width follows the clock: 4 px per second
    const ctx = document.getElementById('c').getContext('2d');
    ctx.clearRect(0, 0, 16, 16); ctx.fillStyle = '#00ff00'; ctx.fillRect(0, 0, Math.round(performance.now() / 250), 16);
    requestAnimationFrame(loop);
  }
  requestAnimationFrame(loop);
  window.randoms = [Math.random(), Math.random(), Math.random()];
</script></body></html>`,
  );
  fx.server.routes.set(
    '/vars.html',
    `<!doctype html><html data-composition-id="main" data-duration="1" data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hello"},{"id":"count","type":"number","label":"Count","default":3}]'>
<head></head><body><h1 id="t"></h1><script>
  const { title = 'none', count = 0 } = window.__hyperframes.getVariables();
  document.getElementById('t').textContent = title + ':' + count;
</script></body></html>`,
  );
  fx.server.routes.set(
    '/hyperframes.html',
    `<!doctype html><html><head>${HEAD}</head><body>
<div id="root" data-composition-id="hf" data-start="0" data-width="160" data-height="90" data-duration="3">
  <div id="c1" class="clip" data-start="1" data-duration="1"></div><div id="hbox"></div>
</div>
<script>
  const hbox = document.getElementById('hbox');
  window.__timelines = window.__timelines || {};
  window.__timelines.hf = { paused: () => true, totalTime: (t) => { hbox.dataset.t = String(t); } };
</script></body></html>`,
  );
  fx.server.routes.set(
    '/cycle.html',
    `<!doctype html><html data-duration="2"><head></head><body><div id="a" data-start="b" data-duration="1"></div>
<div id="b" data-start="a" data-duration="1"></div></body></html>`,
  );
  fx.server.routes.set(
    '/throws.html',
    `<!doctype html><html data-duration="1"><head></head><body>
<script>
throw new Error('boom from author');</script>
<script>window.__timelines = { main: { paused: () => true, totalTime: (t) => { if (t > 0.5) throw new Error('bad tween'); } } };</script>
<script>Promise.reject(new Error('async boom'));</script></body></html>`,
  );
});

afterAll(async () => {
  await fx?.close();
});

const open = (path: string): Promise<Page> => openReady(fx, path);

async function seek(page: Page, t: number): Promise<void> {
  await page.evaluate((time) => window.__seekframe!.seek(time), t);
}

describe('runtime seeking in Chromium', () => {
  it('exposes compile-time metadata and seeks a paused GSAP timeline, firing its callbacks', async () => {
    const page = await open('/gsap.html?duration=4');
    expect(await page.evaluate(() => [window.__seekframe!.duration, window.__seekframe!.fps, window.__seekframe!.width])).toEqual([
      4, 30, 160,
    ]);
    const x = (): Promise<string> => page.evaluate(() => getComputedStyle(document.getElementById('box')!).transform);
    await seek(page, 1);
    expect(await x()).toBe('matrix(1, 0, 0, 1, 50, 0)');
    // forward only: GSAP's global timeline cannot run backwards, which is why timelines are registered
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('free')!).transform)).toBe('matrix(1, 0, 0, 1, 50, 0)');
    await seek(page, 0.5);
    expect(await x()).toBe('matrix(1, 0, 0, 1, 25, 0)');
    await seek(page, 3.5);
    expect(await x()).toBe('matrix(1, 0, 0, 1, 100, 0)');
    expect(await page.evaluate(() => (window as unknown as { calls: string[] }).calls)).toEqual(['at-3']);
    // an inline composition's timeline runs on its own clock, from its data-start
    await seek(page, 1.5);
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('sbox')!).transform)).toBe('matrix(1, 0, 0, 1, 50, 0)');
    await seek(page, 99); // clamped to the duration
    expect(await x()).toBe('matrix(1, 0, 0, 1, 100, 0)');
    await page.close();
  });

  it('seeks CSS animations and Web Animations, including ones started later by timers', async () => {
    const page = await open('/css.html');
    const read = (): Promise<{ left: string; opacity: string; top: string; width: string }> =>
      page.evaluate(() => ({
        left: getComputedStyle(document.getElementById('css')!).left,
        opacity: getComputedStyle(document.getElementById('waapi')!).opacity,
        top: getComputedStyle(document.getElementById('late')!).top,
        width: getComputedStyle(document.getElementById('late-css')!).width,
      }));
    await seek(page, 0.5);
    expect(await read()).toEqual({ left: '25px', opacity: '0.25', top: '0px', width: '10px' });
    // jump straight past both late starts: they must be born at 1 s and 2 s, not at the seek time
    await seek(page, 2.5);
    expect(await read()).toEqual({ left: '100px', opacity: '1', top: '80px', width: '50px' });
    await seek(page, 1.5);
    expect(await read()).toEqual({ left: '75px', opacity: '0.75', top: '40px', width: '0px' });
    await page.close();
  });

  it('shows clips only inside [start, start + duration), following ids, with data-duration read after scripts', async () => {
    const page = await open('/clips.html');
    const visible = (): Promise<Record<string, string>> =>
      page.evaluate(() =>
        Object.fromEntries(
          ['intro', 'next', 'after', 'inner', 'always', 'scripted'].map((id) => [
            id,
            getComputedStyle(document.getElementById(id)!).visibility,
          ]),
        ),
      );
    await seek(page, 0.5);
    expect(await visible()).toEqual({
      intro: 'visible',
      next: 'hidden',
      after: 'hidden',
      inner: 'hidden',
      always: 'visible',
      scripted: 'hidden',
    });
    await seek(page, 1);
    expect(await visible()).toMatchObject({ intro: 'hidden', next: 'hidden' });
    await seek(page, 1.5);
    expect(await visible()).toMatchObject({ intro: 'hidden', next: 'visible', after: 'hidden' });
    await seek(page, 2.6);
    expect(await visible()).toMatchObject({ next: 'hidden', after: 'visible', inner: 'visible' });
    await seek(page, 3.2);
    expect(await visible()).toMatchObject({ scripted: 'visible' });
    await seek(page, 3.6);
    expect(await visible()).toMatchObject({ scripted: 'hidden', after: 'visible' });
    // layout is untouched by hiding: the hidden clip still has its box
    expect(await page.evaluate(() => document.getElementById('intro')!.getBoundingClientRect().width)).toBe(10);
    await page.close();
  });

  it('runs a HyperFrames-style composition whose root is a <div> in <body>', async () => {
    const page = await open('/hyperframes.html?duration=3&id=hf');
    const state = async (t: number): Promise<unknown> => {
      await seek(page, t);
      return page.evaluate(() => ({
        root: getComputedStyle(document.getElementById('root')!).visibility,
        clip: getComputedStyle(document.getElementById('c1')!).visibility,
        timeline: document.getElementById('hbox')!.dataset.t,
      }));
    };
    expect(await state(1.5)).toEqual({ root: 'visible', clip: 'visible', timeline: '1.5' });
    expect(await state(2.5)).toEqual({ root: 'visible', clip: 'hidden', timeline: '2.5' });
    await page.close();
  });

  it('drives Date.now, new Date, performance.now, rAF and timers from the seek time', async () => {
    const page = await open('/clock.html');
    await seek(page, 1);
    const state = (): Promise<unknown> =>
      page.evaluate(() => {
        const w = window as unknown as { frame: unknown; ticks: number; fired: number[] };
        const px = document.getElementById('c') as HTMLCanvasElement;
        const data = px.getContext('2d')!.getImageData(0, 0, 16, 1).data;
        let green = 0;
        for (let i = 0; i < 16; i++) if (data[i * 4 + 1] === 255) green++;
        return { frame: w.frame, ticks: w.ticks, fired: w.fired, green };
      });
    expect(await state()).toEqual({ frame: { ts: 1000, perf: 1000, date: 1000, newDate: 1000 }, ticks: 10, fired: [250], green: 4 });
    await seek(page, 2.5);
    expect(await state()).toEqual({ frame: { ts: 2500, perf: 2500, date: 2500, newDate: 2500 }, ticks: 25, fired: [250], green: 10 });
    await page.close();
  });

  it("keeps real timers for automation code, so puppeteer's waitForFunction polling still works", async () => {
    const page = await open('/clock.html');
    for (const polling of ['raf', 20] as const) {
      const key = `flag-${polling}`;
      const waiting = page.waitForFunction((k) => document.body.hasAttribute(k), { polling, timeout: 5000 }, key);
      await new Promise((r) => setTimeout(r, 100));
      await page.evaluate((k) => document.body.setAttribute(k, ''), key);
      await waiting;
    }
    // ...while the page's own timers stayed virtual: no seek happened, so no tick ran
    expect(await page.evaluate(() => (window as unknown as { ticks: number }).ticks)).toBe(0);
    await page.close();
  });

  it('seeds Math.random: the same seed gives the same numbers on two loads, another seed differs', async () => {
    const values = async (query: string): Promise<number[]> => {
      const page = await open(`/clock.html?${query}`);
      const r = await page.evaluate(() => (window as unknown as { randoms: number[] }).randoms);
      await page.close();
      return r;
    };
    const a = await values('seed=7');
    const b = await values('seed=7');
    const c = await values('seed=8');
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.every((n) => n >= 0 && n < 1)).toBe(true);
  });

  it('resolves variables from declared defaults and top-level overrides (also via __hyperframes)', async () => {
    const plain = await open('/vars.html');
    expect(await plain.evaluate(() => window.__seekframe!.getVariables())).toEqual({ title: 'Hello', count: 3 });
    expect(await plain.$eval('#t', (el) => el.textContent)).toBe('Hello:3');
    await plain.close();
    const vars = encodeURIComponent(JSON.stringify({ title: 'Bye' }));
    const overridden = await open(`/vars.html?vars=${vars}`);
    expect(await overridden.evaluate(() => window.__hyperframes!.getVariables())).toEqual({ title: 'Bye', count: 3 });
    expect(await overridden.$eval('#t', (el) => el.textContent)).toBe('Bye:3');
    await overridden.close();
  });

  it('rejects ready with the resolver message when data-start forms a cycle', async () => {
    const page = await fx.browser.newPage();
    await page.goto(`${fx.server.url}/cycle.html`);
    const message = await page.evaluate(() =>
      window.__seekframe!.ready.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(message).toContain('cycle');
    expect(message).toContain('/cycle.html');
    // seek() reports the same problem instead of hanging
    const seekMessage = await page.evaluate(() =>
      window.__seekframe!.seek(1).then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(seekMessage).toBe(message);
    await page.close();
  });

  it('collects errors thrown by author scripts', async () => {
    const page = await open('/throws.html');
    const errors = await page.evaluate(() => window.__seekframe!.errors());
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('boom from author');
    // Line 3 of the file as written: the runtime injected into <head> does not move it.
    expect(errors[0]).toContain('/throws.html:3:');
    expect(errors[1]).toContain('async boom');
    // a throwing timeline callback is reported, and the seek itself still completes
    await page.evaluate(() => window.__seekframe!.seek(0.75));
    const after = await page.evaluate(() => window.__seekframe!.errors());
    expect(after).toHaveLength(3);
    expect(after[2]).toContain('bad tween');
    expect(after[2]).toContain('window.__timelines["main"]');
    await page.close();
  });
});
