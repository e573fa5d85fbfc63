import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderComposition } from '@seekframe/producer';
import { hostPage, openPage, waitForEvents } from './support/player-browser.js';
import { usePlayerSite } from './support/player-site.js';

/** Text, a gradient, a GSAP-free CSS animation and a rotated element: the picture varies with t. */
const COMPOSITION = `<!doctype html>
<html data-composition-id="pix" data-width="160" data-height="90" data-duration="1">
<head><style>
  html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: linear-gradient(90deg, #123 0%, #a52 100%); }
  #title { position: absolute; left: 8px; top: 6px; color: #fff; font: bold 16px sans-serif; }
  #spin { position: absolute; left: 60px; top: 40px; width: 30px; height: 30px; background: #3c9; animation: spin 1s linear both; }
  @keyframes spin { from { transform: rotate(0deg) translateX(0px); } to { transform: rotate(180deg) translateX(40px); } }
</style></head>
<body><div id="title">Seekframe</div><div id="spin"></div></body></html>`;

const FPS = 10;
const FRAME = 6; // t = 0.6 s

const site = usePlayerSite('seekframe-pixels-', async (dir) => {
  await writeFile(path.join(dir, 'index.html'), COMPOSITION);
  await writeFile(path.join(dir, 'host.html'), hostPage('/seekframe-player.js', 'src="index.html"'));
});

function meanAbsDiff(a: PNG, b: PNG): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs((a.data[i + c] ?? 0) - (b.data[i + c] ?? 0));
  }
  return sum / ((a.data.length / 4) * 3);
}

describe('player frame vs rendered frame', () => {
  it('shows at t what renderComposition renders at t (mean abs RGB difference < 2 of 255)', async () => {
    const output = path.join(site.dir, 'frames');
    const result = await renderComposition({ projectDir: site.dir, output, format: 'png-sequence', fps: FPS, workers: 1 });
    expect(result.frames).toBe(FPS);
    const files = (await readdir(output)).filter((f) => f.endsWith('.png')).sort();
    expect(files).toHaveLength(FPS);
    const rendered = PNG.sync.read(await readFile(path.join(output, files[FRAME] as string)));
    expect([rendered.width, rendered.height]).toEqual([160, 90]);

    const page = await openPage(site.session, `${site.statics.origin}/host.html`);
    await waitForEvents(page, 'ready');
    await page.evaluate(
      (t) => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(t),
      FRAME / FPS,
    );
    const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 160, height: 90 }, type: 'png' });
    const shown = PNG.sync.read(Buffer.from(shot));
    expect([shown.width, shown.height]).toEqual([160, 90]);
    expect(meanAbsDiff(shown, rendered)).toBeLessThan(2);

    // The comparison can tell frames apart: the frame before differs clearly.
    const previous = PNG.sync.read(await readFile(path.join(output, files[FRAME - 3] as string)));
    expect(meanAbsDiff(shown, previous)).toBeGreaterThan(2);
    await page.close();
  });
});
