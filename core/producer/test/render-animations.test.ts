import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition } from '../src/index.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

/**
 * Three white bars grow from 0 to 160 px over 1 s, linearly: row 0 by a GSAP timeline (GSAP loaded
 * from its jsdelivr URL, which must map to the installed package: this machine is offline), row 1
 * by a CSS animation, row 2 by the Web Animations API.
 */
beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      duration: 1,
      fps: 10,
      head: `<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>
  .bar { position: absolute; left: 0; height: 30px; width: 0; background: #fff; }
  #css { top: 30px; animation: grow 1s linear forwards; }
  @keyframes grow { from { width: 0; } to { width: 160px; } }
</style>`,
      body: `<div class="bar" id="gsap" style="top:0"></div><div class="bar" id="css"></div><div class="bar" id="waapi" style="top:60px"></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.fromTo('#gsap', { width: 0 }, { width: 160, duration: 1, ease: 'none' });
  window.__timelines = window.__timelines || {};
  window.__timelines.main = tl;
  document.getElementById('waapi').animate([{ width: '0px' }, { width: '160px' }], { duration: 1000, easing: 'linear', fill: 'forwards' });
</script>`,
    }),
  });
});
afterAll(async () => project?.cleanup());

/** Width of the white run at the start of row y. */
function barWidth(frame: Buffer, y: number): number {
  let x = 0;
  while (x < 160 && frame[(y * 160 + x) * 3]! > 128) x++;
  return x;
}

describe('animations are seeked, not played', () => {
  // canvas draws the page's own paint into a canvas; beginframe screenshots the compositor's frame.
  it.each(['canvas', 'beginframe'] as const)(
    'GSAP (from the jsdelivr URL, offline), CSS and WAAPI are at 16 px per frame in every frame (%s)',
    async (captureMode) => {
      const output = path.join(project.dir, `anim-${captureMode}.mp4`);
      const result = await renderComposition({ projectDir: project.dir, output, workers: 2, captureMode });
      expect(result.captureMode).toBe(captureMode);
      const frames = await decodeFrames(output, 160, 90);
      expect(frames).toHaveLength(10);
      const widths = frames.map((frame) => [barWidth(frame, 15), barWidth(frame, 45), barWidth(frame, 75)]);
      widths.forEach((row, i) => {
        for (const width of row) expect(Math.abs(width - 16 * i), `frame ${i}: ${row.join(', ')}`).toBeLessThanOrEqual(2);
      });
    },
  );
});
