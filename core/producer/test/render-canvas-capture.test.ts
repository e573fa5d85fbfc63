import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition, type RenderEvent } from '../src/index.js';
import { readFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import { decodeFrames, probe } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

/**
 * Canvas capture (HTML-in-canvas) against beginframe on the same pages: frames are compared
 * decoded, pixel by pixel. The two paths rasterise in different places (Skia replaying the page's
 * paint into a canvas, against the compositor's tiles), the reference went through a JPEG, and
 * x264 codes the two inputs apart: together ~1.6 levels of 255 on average. A frame one step off
 * (the bars are 16 px apart from frame to frame) differs by ~8, so the bound of 3 catches that.
 */
let moving: { dir: string; cleanup(): Promise<void> };
let blocked: { dir: string; cleanup(): Promise<void> };
let overlay: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  moving = await tempProject({
    'index.html': composition({
      width: 160,
      height: 96,
      duration: 1,
      fps: 10,
      head: `<style>
  body { background: #1d2433 !important; }
  .bar { position: absolute; left: 0; height: 20px; width: 0; background: #fff; }
  #css { top: 24px; animation: grow 1s linear forwards; }
  @keyframes grow { from { width: 0; } to { width: 160px; } }
  #label { position: absolute; left: 8px; top: 56px; font: 700 20px sans-serif; color: #7c5cff; }
  #spin { position: absolute; right: 8px; top: 56px; width: 30px; height: 30px; background: #fc3; border-radius: 6px; }
</style>`,
      body: `<div class="bar" id="js" style="top:0"></div><div class="bar" id="css"></div><div id="label">Seek</div><div id="spin"></div>
<script>
  window.__seekframe.onSeek((t) => {
    document.getElementById('js').style.width = (t * 160) + 'px';
    document.getElementById('spin').style.transform = 'rotate(' + (t * 180) + 'deg)';
    document.getElementById('label').textContent = 'Seek ' + t.toFixed(1);
  });
</script>`,
    }),
  });
  blocked = await tempProject({
    'index.html': composition({
      duration: 0.3,
      fps: 10,
      body: `<canvas id="chart" width="160" height="90"></canvas>
<script>
  const ctx = document.getElementById('chart').getContext('2d');
  window.__seekframe.onSeek((t) => { ctx.fillStyle = t < 0.15 ? '#f00' : '#00f'; ctx.fillRect(0, 0, 160, 90); });
</script>`,
    }),
  });
  // A transparent overlay: half-transparent and rounded shapes, text, a turning box; no backdrop.
  overlay = await tempProject({
    'index.html': composition({
      width: 80,
      height: 48,
      duration: 0.3,
      fps: 10,
      head: `<style>
  html, body { background: transparent !important; }
  #glass { position: absolute; left: 4px; top: 4px; width: 30px; height: 20px; border-radius: 6px; background: rgba(255, 0, 64, 0.5); }
  #label { position: absolute; left: 38px; top: 2px; font: 700 12px sans-serif; color: #3c6; }
  #spin { position: absolute; left: 44px; top: 24px; width: 16px; height: 16px; background: #36f; }
</style>`,
      body: `<div id="glass"></div><div id="label">Hi</div><div id="spin"></div>
<script>window.__seekframe.onSeek((t) => { document.getElementById('spin').style.transform = 'rotate(' + (t * 150) + 'deg)'; });</script>`,
    }),
  });
});
afterAll(async () => {
  await moving?.cleanup();
  await blocked?.cleanup();
  await overlay?.cleanup();
});

async function readPng(file: string): Promise<PNG> {
  return PNG.sync.read(await readFile(file));
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Width of the white run at the start of row y (RGB24 frames 160 wide). */
function barWidth(frame: Buffer, y: number): number {
  let x = 0;
  while (x < 160 && frame[(y * 160 + x) * 3]! > 128) x++;
  return x;
}

describe('canvas capture', () => {
  it('auto picks canvas for an opaque mp4 and gives the frames beginframe gives, in every frame', async () => {
    const events: RenderEvent[] = [];
    const canvas = await renderComposition(
      { projectDir: moving.dir, output: path.join(moving.dir, 'canvas.mp4'), workers: 2, quality: 'high' },
      (event) => events.push(event),
    );
    expect(canvas.report.captureMode).toMatchObject({ value: 'canvas', requested: 'auto' });
    expect(canvas.report.captureMode?.reason).toContain('drawElementImage');
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    const reference = await renderComposition({
      projectDir: moving.dir,
      output: path.join(moving.dir, 'beginframe.mp4'),
      workers: 1,
      quality: 'high',
      captureMode: 'beginframe',
    });
    expect(reference.report.captureMode?.value).toBe('beginframe');
    const [a, b] = await Promise.all([decodeFrames(canvas.output, 160, 96), decodeFrames(reference.output, 160, 96)]);
    expect(a).toHaveLength(10);
    expect(b).toHaveLength(10);
    for (let i = 0; i < 10; i++) {
      // Both bars at 16 px per frame: the frame is the one seeked, not one before or after.
      expect(Math.abs(barWidth(a[i]!, 10) - 16 * i), `frame ${i}, script bar`).toBeLessThanOrEqual(2);
      expect(Math.abs(barWidth(a[i]!, 34) - 16 * i), `frame ${i}, CSS bar`).toBeLessThanOrEqual(2);
      expect(meanAbsDiff(a[i]!, b[i]!), `frame ${i}`).toBeLessThan(3);
    }
  });

  it('gif takes raw BGRA frames (no 4:2:0 step) and keeps the page colours', async () => {
    const result = await renderComposition({ projectDir: moving.dir, output: path.join(moving.dir, 'out.gif'), format: 'gif', workers: 1 });
    expect(result.report.captureMode?.value).toBe('canvas');
    const { streams } = await probe(result.output);
    expect(streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'gif', width: 160, height: 96 });
    const frames = await decodeFrames(result.output, 160, 96);
    expect(frames).toHaveLength(10);
    // The page background #1d2433 in a corner of the last frame (GIF palettes are exact for a flat area).
    const last = frames.at(-1)!;
    const at = (96 - 2) * 160 * 3;
    expect([last[at], last[at + 1], last[at + 2]].map((v) => Math.round(v! / 4))).toEqual([0x1d, 0x24, 0x33].map((v) => Math.round(v / 4)));
  });

  it("keeps transparency and draws at --scale: a png-sequence at scale 2 equals beginframe's, alpha included", async () => {
    const render = (captureMode: 'auto' | 'beginframe', name: string) =>
      renderComposition({
        projectDir: overlay.dir,
        output: path.join(overlay.dir, name),
        format: 'png-sequence',
        scale: 2,
        workers: 1,
        captureMode,
      });
    const canvas = await render('auto', 'canvas');
    expect(canvas.report.captureMode?.value).toBe('canvas');
    const reference = await render('beginframe', 'beginframe');
    for (let i = 1; i <= 3; i++) {
      const file = `frame_${String(i).padStart(6, '0')}.png`;
      const [a, b] = await Promise.all([readPng(path.join(canvas.output, file)), readPng(path.join(reference.output, file))]);
      expect([a.width, a.height]).toEqual([160, 96]);
      // Straight (not premultiplied) alpha, as beginframe's PNGs have it: the half-transparent panel's centre.
      const centre = (28 * 160 + 38) * 4;
      expect([...a.data.subarray(centre, centre + 4)]).toEqual([255, 0, 64, 128]);
      expect(meanAbsDiff(a.data, b.data), file).toBeLessThan(0.5);
    }
  });

  it('a page with a <canvas> is captured with beginframe, with a canvas-capture-blocked warning naming it, in events and report', async () => {
    const events: RenderEvent[] = [];
    const result = await renderComposition(
      { projectDir: blocked.dir, output: path.join(blocked.dir, 'out.mp4'), workers: 1, captureMode: 'canvas' },
      (event) => events.push(event),
    );
    const warning = events.find((e) => e.type === 'warning' && e.code === 'canvas-capture-blocked');
    expect(warning?.type === 'warning' && warning.message).toContain('<canvas#chart>');
    expect(result.report.captureMode).toMatchObject({ value: 'beginframe', requested: 'canvas' });
    expect(result.report.captureMode?.reason).toContain('<canvas#chart>');
    // beginframe draws the canvas: red, then blue.
    const frames = await decodeFrames(result.output, 160, 90);
    const centre = (45 * 160 + 80) * 3;
    expect(frames[0]![centre]).toBeGreaterThan(200);
    expect(frames[2]![centre + 2]).toBeGreaterThan(200);
  });
});
