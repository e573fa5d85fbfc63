import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { createProjectServer, createRuntimeInjector, type ProjectServer } from '@seekframe/producer';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { hostPage, openPage, waitForEvents } from './support/player-browser.js';
import { usePlayerSite } from './support/player-site.js';

/**
 * The preview path (a Seekframe server injecting the runtime, mode preview) on the same
 * HyperFrames-format fixtures the render tests use: what the player shows at t is checked by pixels.
 */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'producer', 'test', 'fixtures', 'hyperframes');

const site = usePlayerSite('seekframe-player-hf-', async (dir) => {
  for (const name of ['iframe-raf', 'template-instances', 'timeline-length'])
    await cp(path.join(fixtures, name), path.join(dir, name), { recursive: true });
  // width="160": the player shows the 160x90 composition at 1:1, so pixels map to composition pixels.
  await writeFile(path.join(dir, 'raf.html'), hostPage('/seekframe-player.js', 'src="iframe-raf/index.html" width="160"'));
  await writeFile(path.join(dir, 'cards.html'), hostPage('/seekframe-player.js', 'src="template-instances/index.html" width="160"'));
  await writeFile(path.join(dir, 'length.html'), hostPage('/seekframe-player.js', 'src="timeline-length/index.html" width="160"'));
});

let server: ProjectServer;
beforeAll(async () => {
  server = await createProjectServer({
    root: site.dir,
    entry: 'iframe-raf/index.html',
    prepareHtml: createRuntimeInjector({ runtimeSource: (await bundleRuntime({ write: false })) as string, mode: 'preview' }),
  });
});
afterAll(async () => {
  await server?.close();
});

async function seek(page: Page, t: number): Promise<void> {
  await page.evaluate(
    (time) => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(time),
    t,
  );
}

/** RGB rows of the player's 160x90 box, from a real screenshot. */
async function capture(page: Page): Promise<(x: number, y: number) => [number, number, number]> {
  const png = (await page.screenshot({ type: 'png', encoding: 'base64', clip: { x: 0, y: 0, width: 160, height: 90 } })) as string;
  const data = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    return { width: img.width, pixels: [...ctx.getImageData(0, 0, img.width, img.height).data] };
  }, png);
  return (x, y) => {
    const i = (y * data.width + x) * 4;
    return [data.pixels[i]!, data.pixels[i + 1]!, data.pixels[i + 2]!];
  };
}

function brightRun(at: (x: number, y: number) => [number, number, number], x0: number, y: number, max: number, channel = 0): number {
  let x = 0;
  while (x < max && at(x0 + x, y)[channel]! > 128) x++;
  return x;
}

describe('HyperFrames compatibility in the player (preview)', () => {
  it('an <iframe> page animated by requestAnimationFrame shows the frame of the seeked time, in any order', async () => {
    const page = await openPage(site.session, `${server.origin}/raf.html`);
    await waitForEvents(page, 'ready');
    for (const t of [0.5, 0.2, 0.9, 0.3]) {
      await seek(page, t);
      const at = await capture(page);
      expect(Math.abs(brightRun(at, 0, 45, 160) - 160 * t), `t=${t}`).toBeLessThanOrEqual(1);
    }
    await page.close();
  });

  it('a <template> child embedded twice shows each instance in its own colour with its own timeline', async () => {
    const page = await openPage(site.session, `${server.origin}/cards.html`);
    await waitForEvents(page, 'ready');
    await seek(page, 0.5);
    const at = await capture(page);
    expect(at(40, 30)).toEqual([255, 0, 0]);
    expect(at(120, 30)).toEqual([0, 0, 255]);
    expect(Math.abs(brightRun(at, 0, 75, 80) - 40)).toBeLessThanOrEqual(1);
    expect(Math.abs(brightRun(at, 80, 75, 80) - 40)).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('a root without data-duration plays as long as the timeline it registers', async () => {
    const page = await openPage(site.session, `${server.origin}/length.html`);
    const [ready] = (await waitForEvents(page, 'ready')).filter((e) => e.type === 'ready');
    expect(ready?.detail).toMatchObject({ duration: 1.5, width: 160, height: 90 });
    await seek(page, 1);
    const at = await capture(page);
    expect(Math.abs(brightRun(at, 0, 45, 160) - 100)).toBeLessThanOrEqual(1);
    await page.close();
  });
});
