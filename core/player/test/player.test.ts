import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { createProjectServer, createRuntimeInjector, type ProjectServer } from '@seekframe/producer';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { hostPage, openPage, SLIDING_BOX, waitForEvents } from './support/player-browser.js';
import { usePlayerSite } from './support/player-site.js';

const site = usePlayerSite('seekframe-player-test-', async (dir) => {
  await mkdir(path.join(dir, 'comp'));
  await writeFile(path.join(dir, 'comp', 'index.html'), SLIDING_BOX);
  await writeFile(path.join(dir, 'plain.html'), hostPage('/seekframe-player.js', 'src="comp/index.html"'));
  await writeFile(path.join(dir, 'vars.html'), hostPage('/seekframe-player.js', `src="comp/index.html" variables='{"color":"#00ff00"}'`));
  await writeFile(path.join(dir, 'missing.html'), hostPage('/seekframe-player.js', 'src="comp/nothing-here.html"'));
  await writeFile(
    path.join(dir, 'comp', 'throws.html'),
    SLIDING_BOX.replace(
      '</body>',
      "<script>window.__seekframe.onSeek((t) => { if (t > 0.5) throw new Error('boom at ' + t); });</script></body>",
    ),
  );
  await writeFile(path.join(dir, 'throws.html'), hostPage('/seekframe-player.js', 'src="comp/throws.html"'));
  await writeFile(
    path.join(dir, 'looping.html'),
    hostPage('/seekframe-player.js', 'src="comp/index.html" autoplay loop controls width="80"'),
  );
});

/** The composition's window inside the player: box position and colour, variables, frame kind. */
function inspectFrame(page: Page): Promise<{ left: string; background: string; variables: unknown; usesSrcdoc: boolean; time: number }> {
  return page.evaluate(() => {
    const player = document.querySelector('seekframe-player') as HTMLElement & {
      contentWindow: Window & { __seekframe: { getVariables(): unknown } };
      currentTime: number;
    };
    const win = player.contentWindow;
    const box = win.document.getElementById('box') as HTMLElement;
    const style = win.getComputedStyle(box);
    const iframe = player.shadowRoot?.querySelector('iframe:not(.loading)') as HTMLIFrameElement;
    return {
      left: style.left,
      background: style.backgroundColor,
      variables: win.__seekframe.getVariables(),
      usesSrcdoc: iframe.hasAttribute('srcdoc'),
      time: player.currentTime,
    };
  });
}

describe('<seekframe-player> on a plain static server', () => {
  it('injects the runtime itself, fires ready, seeks to a time and plays to the end', async () => {
    const page = await openPage(site.session, `${site.statics.origin}/plain.html`);
    const [ready] = (await waitForEvents(page, 'ready')).filter((e) => e.type === 'ready');
    expect(ready?.detail).toEqual({ duration: 1, width: 160, height: 90 });
    await page.evaluate(() => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(0.5));
    const seeked = await inspectFrame(page);
    expect(seeked).toMatchObject({ left: '70px', background: 'rgb(255, 0, 0)', usesSrcdoc: true, time: 0.5 });
    expect(
      (await waitForEvents(page, 'timeupdate')).some(
        (e) => e.type === 'timeupdate' && (e.detail as { currentTime: number }).currentTime === 0.5,
      ),
    ).toBe(true);

    await page.evaluate(() => (document.querySelector('seekframe-player') as unknown as { play(): void }).play());
    const events = await waitForEvents(page, 'ended');
    const afterPlay = events.slice(events.findIndex((e) => e.type === 'play'));
    const times = afterPlay.filter((e) => e.type === 'timeupdate').map((e) => (e.detail as { currentTime: number }).currentTime);
    expect(times.length).toBeGreaterThan(1);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.at(-1)).toBe(1);
    expect(afterPlay.map((e) => e.type).slice(-2)).toEqual(['pause', 'ended']);
    expect((await inspectFrame(page)).left).toBe('140px');
    await page.close();
  });

  it('gives its variables to getVariables() and reloads at the same time when they change', async () => {
    const page = await openPage(site.session, `${site.statics.origin}/vars.html`);
    await waitForEvents(page, 'ready');
    await page.evaluate(() => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(0.25));
    expect(await inspectFrame(page)).toMatchObject({ background: 'rgb(0, 255, 0)', variables: { color: '#00ff00' }, left: '35px' });
    await page.evaluate(() => {
      (document.querySelector('seekframe-player') as unknown as { variables: unknown }).variables = { color: '#0000ff' };
    });
    await waitForEvents(page, 'ready', 2);
    expect(await inspectFrame(page)).toMatchObject({
      background: 'rgb(0, 0, 255)',
      variables: { color: '#0000ff' },
      left: '35px',
      time: 0.25,
    });
    expect(await page.evaluate(() => document.querySelector('seekframe-player')?.shadowRoot?.querySelectorAll('iframe').length)).toBe(1);
    await page.close();
  });

  it('fires error with a message naming the src when the page cannot be fetched', async () => {
    const page = await openPage(site.session, `${site.statics.origin}/missing.html`);
    const events = await waitForEvents(page, 'error');
    const error = events.find((e) => e.type === 'error')?.detail as { code: string; message: string };
    expect(error.code).toBe('player-load-failed');
    expect(error.message).toContain('comp/nothing-here.html');
    expect(error.message).toContain('404');
    await page.close();
  });
});

describe('<seekframe-player> and author script errors', () => {
  it('fires error (page-script-error) with the thrown message when a seek makes the composition throw', async () => {
    const page = await openPage(site.session, `${site.statics.origin}/throws.html`);
    await waitForEvents(page, 'ready');
    const seekTo = (t: number): Promise<void> =>
      page.evaluate((at) => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(at), t);
    await seekTo(0.25);
    expect((await page.evaluate(() => (window as unknown as { events: Array<{ type: string }> }).events)).map((e) => e.type)).not.toContain(
      'error',
    );
    await seekTo(0.75);
    const events = await waitForEvents(page, 'error');
    const error = events.find((e) => e.type === 'error')?.detail as { code: string; message: string };
    expect(error.code).toBe('page-script-error');
    expect(error.message).toContain('boom at 0.75');
    await page.close();
  });
});

describe('<seekframe-player> attributes', () => {
  it('autoplay starts by itself, loop wraps to the start, width scales with the aspect kept, controls follow the time', async () => {
    const page = await openPage(site.session, `${site.statics.origin}/looping.html`);
    await waitForEvents(page, 'play');
    await page.waitForFunction(
      () => {
        const times = (window as unknown as { events: Array<{ type: string; detail: { currentTime: number } }> }).events
          .filter((e) => e.type === 'timeupdate')
          .map((e) => e.detail.currentTime);
        return times.some((t, i) => i > 0 && t < (times[i - 1] as number));
      },
      { timeout: 30_000 },
    );
    const state = await page.evaluate(() => {
      const player = document.querySelector('seekframe-player') as HTMLElement & { pause(): void; paused: boolean };
      player.pause();
      const stage = player.shadowRoot?.querySelector('.stage') as HTMLElement;
      const range = player.shadowRoot?.querySelector('.controls input[type=range]') as HTMLInputElement;
      return {
        paused: player.paused,
        box: [stage.offsetWidth, stage.offsetHeight],
        rangeMax: range.max,
        events: (window as unknown as { events: Array<{ type: string }> }).events.map((e) => e.type),
      };
    });
    expect(state.paused).toBe(true);
    expect(state.box).toEqual([80, 45]);
    expect(state.rangeMax).toBe('1');
    expect(state.events).not.toContain('ended');
    await page.close();
  });
});

describe('<seekframe-player> on a server that injects the runtime (mode preview)', () => {
  let server: ProjectServer;
  beforeAll(async () => {
    server = await createProjectServer({
      root: site.dir,
      entry: 'comp/index.html',
      prepareHtml: createRuntimeInjector({ runtimeSource: (await bundleRuntime({ write: false })) as string, mode: 'preview' }),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('loads the injected page by URL (no second runtime) and still applies its variables', async () => {
    const page = await openPage(site.session, `${server.origin}/vars.html`);
    await waitForEvents(page, 'ready');
    await page.evaluate(() => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(1));
    expect(await inspectFrame(page)).toMatchObject({ left: '140px', background: 'rgb(0, 255, 0)', usesSrcdoc: false, time: 1 });
    expect(
      await page.evaluate(
        () =>
          (document.querySelector('seekframe-player') as unknown as { contentWindow: Window }).contentWindow.document.querySelectorAll(
            'script',
          ).length,
      ),
    ).toBe(3);
    await page.close();
  });
});
