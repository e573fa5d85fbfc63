import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser, renderFramePool, withRenderTuning } from '@seekframe/engine';
import {
  createProjectServer,
  createRuntimeInjector,
  frameTime,
  loadRuntimeSource,
  renderComposition,
  type ProjectServer,
} from '../src/index.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

// 2.4 s at 15 fps = 36 frames. Every kind of change the runtime drives, each separated by still
// stretches: a CSS animation (0-0.4 s), a delayed CSS animation (0.6-0.9 s), a clip (0.8-1.1 s),
// a GSAP tween (1.2-1.5 s), a virtual timer (1.6 s), an onSeek canvas (from 1.8 s), then a hold.
const FPS = 15;
const FRAMES = 36;
const html = composition({
  duration: 2.4,
  fps: FPS,
  head: `<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>.b{position:absolute;width:20px;height:20px;background:#fc3}
@keyframes slide{from{left:0}to{left:120px}}</style>`,
  body: `<div class="b" style="top:0;animation:slide .4s linear both"></div>
<div class="b" style="top:22px;background:#3cf;animation:slide .3s .6s linear both"></div>
<div class="b" id="clip" data-start="0.8" data-duration="0.3" style="top:44px;left:60px;background:#f3c"></div>
<div class="b" id="tw" style="top:66px;background:#3f6"></div>
<div class="b" id="late" style="top:0;left:140px"></div>
<canvas id="cv" width="40" height="20" style="position:absolute;left:100px;top:66px"></canvas>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#tw', { x: 60, duration: 0.3, ease: 'power2.inOut' }, 1.2);
  window.__timelines = { main: tl };
  setTimeout(() => { document.getElementById('late').style.background = '#f00'; }, 1600);
  const ctx = document.getElementById('cv').getContext('2d');
  // Draws only when its picture changes: a canvas redrawn on every seek is damaged on every frame.
  let lit = false;
  window.__seekframe.onSeek((t) => {
    if ((t >= 1.8) === lit) return;
    lit = t >= 1.8;
    ctx.clearRect(0, 0, 40, 20);
    if (lit) { ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, 40, 20); }
  });
</script>`,
});

// Canvas capture cannot draw a <canvas> (it falls back to beginframe), so its composition has
// none; it has composited changes instead, which repaint nothing on the main thread: a transform
// animation (0-0.4 s), an opacity animation (0.6-0.9 s), a clip (0.8-1.1 s), a GSAP transform tween
// (1.2-1.5 s), a virtual timer (1.6 s), then a hold.
const canvasHtml = composition({
  duration: 2.4,
  fps: FPS,
  head: `<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>
<style>.b{position:absolute;width:20px;height:20px;background:#fc3;will-change:transform,opacity}
@keyframes slide{from{transform:translateX(0)}to{transform:translateX(120px)}}
@keyframes fade{from{opacity:1}to{opacity:.2}}</style>`,
  body: `<div class="b" style="top:0;animation:slide .4s linear both"></div>
<div class="b" style="top:22px;background:#3cf;animation:fade .3s .6s linear both"></div>
<div class="b" id="clip" data-start="0.8" data-duration="0.3" style="top:44px;left:60px;background:#f3c"></div>
<div class="b" id="tw" style="top:66px;background:#3f6"></div>
<div class="b" id="late" style="top:0;left:140px"></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#tw', { x: 60, duration: 0.3, ease: 'power2.inOut' }, 1.2);
  window.__timelines = { main: tl };
  setTimeout(() => { document.getElementById('late').style.background = '#f00'; }, 1600);
</script>`,
});

let project: { dir: string; cleanup(): Promise<void> };
let canvasProject: { dir: string; cleanup(): Promise<void> };
let server: ProjectServer;
let canvasServer: ProjectServer;

beforeAll(async () => {
  project = await tempProject({ 'index.html': html });
  canvasProject = await tempProject({ 'index.html': canvasHtml });
  const prepareHtml = createRuntimeInjector({ runtimeSource: await loadRuntimeSource(), mode: 'render', fps: FPS, seed: 1, epochMs: 0 });
  server = await createProjectServer({ root: project.dir, entry: 'index.html', prepareHtml });
  canvasServer = await createProjectServer({ root: canvasProject.dir, entry: 'index.html', prepareHtml });
});
afterAll(async () => {
  await server?.close();
  await canvasServer?.close();
  await project?.cleanup();
  await canvasProject?.cleanup();
});

async function capture(
  skipUnchangedFrames: boolean,
  workers: number,
  mode: 'beginframe' | 'canvas' = 'beginframe',
): Promise<{ frames: Buffer[]; reused: number }> {
  const browser = await findBrowser();
  const frames: Buffer[] = [];
  const result = await renderFramePool({
    browser,
    workers,
    batchSize: 9,
    mode,
    page: {
      url: (mode === 'canvas' ? canvasServer : server).entryUrl,
      width: 160,
      height: 90,
      imageFormat: 'jpeg',
      transparent: false,
      readyTimeoutMs: 30_000,
      skipUnchangedFrames,
    },
    times: Array.from({ length: FRAMES }, (_, i) => frameTime(i, { num: FPS, den: 1 })),
    // Copied, then released as the encoder does: a reused buffer must never be handed out twice.
    onFrame: (i, frame, release) => {
      frames[i] = Buffer.from(frame);
      release();
    },
  });
  return { frames, reused: result.reusedFrames };
}

describe('unchanged frames (beginframe damage)', () => {
  it('skips frames Chromium reports undamaged, and every frame equals a render that captures them all', async () => {
    const full = await capture(false, 1);
    const skipping = await capture(true, 2);
    expect(full.reused).toBe(0);
    expect(skipping.reused).toBeGreaterThan(5);
    expect(skipping.frames).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(skipping.frames[i]!.equals(full.frames[i]!), `frame ${i}`).toBe(true);
    // Each change shows up on its own frame: clip edge at 0.8 s, timer at 1.6 s, onSeek at 1.8 s.
    const changed = (i: number): boolean => !full.frames[i]!.equals(full.frames[i - 1]!);
    expect([12, 17, 24, 27].map(changed)).toEqual([true, true, true, true]);
    expect(changed(35)).toBe(false);
  });

  it('renders the same mp4 pixels with and without the shortcut', async () => {
    const on = path.join(project.dir, 'on.mp4');
    const off = path.join(project.dir, 'off.mp4');
    await renderComposition({ projectDir: project.dir, output: on, workers: 1, captureMode: 'beginframe' });
    await withRenderTuning({ skipUnchangedFrames: false }, () =>
      renderComposition({ projectDir: project.dir, output: off, workers: 1, captureMode: 'beginframe' }),
    );
    const a = await decodeFrames(on, 160, 90);
    const b = await decodeFrames(off, 160, 90);
    expect(a).toHaveLength(FRAMES);
    expect(b).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(a[i]!.equals(b[i]!), `frame ${i}`).toBe(true);
  });
});

describe('unchanged frames (canvas capture: no paint event)', () => {
  it('skips frames Chromium did not repaint, and every frame equals a capture of them all, composited changes included', async () => {
    const full = await capture(false, 1, 'canvas');
    const skipping = await capture(true, 2, 'canvas');
    expect(full.reused).toBe(0);
    expect(skipping.reused).toBeGreaterThan(5);
    for (let i = 0; i < FRAMES; i++) expect(skipping.frames[i]!.equals(full.frames[i]!), `frame ${i}`).toBe(true);
    // Each change shows on its frame: transform (1), opacity (10), clip edge (12), GSAP (19), timer (24).
    const changed = (i: number): boolean => !full.frames[i]!.equals(full.frames[i - 1]!);
    expect([1, 10, 12, 19, 24].map(changed)).toEqual([true, true, true, true, true]);
    expect(changed(35)).toBe(false);
  });

  it('renders the same mp4 pixels with and without the shortcut', async () => {
    const on = path.join(canvasProject.dir, 'on.mp4');
    const off = path.join(canvasProject.dir, 'off.mp4');
    const rendered = await renderComposition({ projectDir: canvasProject.dir, output: on, workers: 2, captureMode: 'canvas' });
    expect(rendered.report.captureMode?.value).toBe('canvas');
    expect(rendered.report.frames?.reused).toBeGreaterThan(5);
    await withRenderTuning({ skipUnchangedFrames: false }, () =>
      renderComposition({ projectDir: canvasProject.dir, output: off, workers: 1, captureMode: 'canvas' }),
    );
    const a = await decodeFrames(on, 160, 90);
    const b = await decodeFrames(off, 160, 90);
    expect(a).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(a[i]!.equals(b[i]!), `frame ${i}`).toBe(true);
  });
});
