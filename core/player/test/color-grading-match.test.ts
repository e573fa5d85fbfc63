import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderComposition } from '@seekframe/producer';
import { hostPage, openPage, waitForEvents } from './support/player-browser.js';
import { usePlayerSite } from './support/player-site.js';

const run = promisify(execFile);

/** A gradient image graded with a preset, grain (seeded by frame), a vignette and a LUT-free adjust. */
const COMPOSITION = `<!doctype html>
<html data-composition-id="graded" data-width="160" data-height="90" data-duration="1">
<head><style>html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #000; }
img { position: absolute; top: 0; width: 80px; height: 90px; display: block; }</style></head>
<body>
<img id="plain" src="ramp.png" style="left:0">
<img id="graded" src="ramp.png" style="left:80px" data-color-grading='{"preset":"vintage","intensity":0.8,"adjust":{"exposure":0.3},"details":{"grain":0.6,"grainSize":2,"vignette":0.5}}'>
</body></html>`;

const FPS = 10;
const FRAME = 6;

const site = usePlayerSite('seekframe-grading-', async (dir) => {
  await writeFile(path.join(dir, 'index.html'), COMPOSITION);
  await writeFile(path.join(dir, 'host.html'), hostPage('/seekframe-player.js', 'src="index.html"'));
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'gradients=s=80x90:c0=0x3060c0:c1=0xe0a040:seed=1,format=rgb24',
    '-frames:v',
    '1',
    path.join(dir, 'ramp.png'),
  ]);
});

function meanAbsDiff(a: PNG, b: PNG, x0: number, x1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * a.width + x) * 4;
      for (let c = 0; c < 3; c++) sum += Math.abs((a.data[i + c] ?? 0) - (b.data[i + c] ?? 0));
      n += 3;
    }
  }
  return sum / n;
}

describe('colour grading: player frame vs rendered frame', () => {
  it('the player shows the same graded picture (grain included) that the render captures at t', async () => {
    const output = path.join(site.dir, 'frames');
    await renderComposition({ projectDir: site.dir, output, format: 'png-sequence', fps: FPS, workers: 1 });
    const files = (await readdir(output)).filter((f) => f.endsWith('.png')).sort();
    const rendered = PNG.sync.read(await readFile(path.join(output, files[FRAME] as string)));

    const page = await openPage(site.session, `${site.statics.origin}/host.html`);
    await waitForEvents(page, 'ready');
    await page.evaluate(
      (t) => (document.querySelector('seekframe-player') as unknown as { seek(t: number): Promise<void> }).seek(t),
      FRAME / FPS,
    );
    const shown = PNG.sync.read(Buffer.from(await page.screenshot({ clip: { x: 0, y: 0, width: 160, height: 90 }, type: 'png' })));
    await page.close();

    // The graded half is graded in both (it differs clearly from the ungraded half of the same image).
    const gradedVsPlain = (png: PNG): number => {
      let sum = 0;
      for (let y = 0; y < 90; y++)
        for (let x = 0; x < 80; x++)
          for (let c = 0; c < 3; c++) sum += Math.abs((png.data[(y * 160 + x) * 4 + c] ?? 0) - (png.data[(y * 160 + x + 80) * 4 + c] ?? 0));
      return sum / (90 * 80 * 3);
    };
    expect(gradedVsPlain(rendered)).toBeGreaterThan(10);
    expect(gradedVsPlain(shown)).toBeGreaterThan(10);
    // Same frame, same pixels (grain is keyed by the frame's time, not by wall time or fps).
    expect(meanAbsDiff(shown, rendered, 80, 160)).toBeLessThan(1);
    expect(meanAbsDiff(shown, rendered, 0, 80)).toBeLessThan(1);
    // The grain moves between frames, so the comparison can tell frames apart.
    const other = PNG.sync.read(await readFile(path.join(output, files[FRAME - 1] as string)));
    expect(meanAbsDiff(other, rendered, 80, 160)).toBeGreaterThan(3);
  }, 120_000);
});
