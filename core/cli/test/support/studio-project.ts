import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The composition's frame rate and size: small, so the render from the panel is quick. */
export const STUDIO_FPS = 10;
export const STUDIO_WIDTH = 320;
export const STUDIO_HEIGHT = 180;

/**
 * Three tracks, a start-after-id chain with an offset, a sub-composition with
 * data-variable-values and a video without data-duration (its length is measured):
 *   track 0: intro [0, 1), title "intro + 0.5" [1.5, 2.5), badge [2, 3) (overlaps title: a lint warning)
 *   track 1: clip.mp4 starting after intro, 1.3 s long [1, 2.3)
 *   track 2: card.html after title, its own 1 s [2.5, 3.5)
 * Frame i paints its index as 8 binary blocks (bit 7 left) in the top 30 px, from the seek time.
 */
export const STUDIO_INDEX = `<!doctype html>
<html data-composition-id="studio" data-width="${STUDIO_WIDTH}" data-height="${STUDIO_HEIGHT}" data-duration="4" data-fps="${STUDIO_FPS}">
<head><style>
  html, body { margin: 0; width: ${STUDIO_WIDTH}px; height: ${STUDIO_HEIGHT}px; background: #202020; overflow: hidden; }
  .bit { position: absolute; top: 0; width: 20px; height: 30px; background: #000; }
  .box { position: absolute; top: 50px; height: 40px; color: #fff; font: 12px sans-serif; }
</style></head>
<body>
<div id="bits"></div>
<div id="intro" class="box" style="left:10px;width:60px;background:#a33" data-start="0" data-duration="1" data-track-index="0">intro</div>
<div id="title" class="box" style="left:80px;width:60px;background:#3a3"
     data-start="intro + 0.5" data-duration="1" data-track-index="0">title</div>
<div id="badge" class="box" style="left:150px;width:40px;background:#33a" data-start="2" data-duration="1" data-track-index="0">badge</div>
<video id="clip" src="clip.mp4" muted data-start="intro" data-track-index="1" style="position:absolute;left:10px;top:100px;width:64px;height:36px"></video>
<div id="card" data-composition-id="card" data-composition-src="card.html" data-start="title" data-track-index="2"
     data-variable-values='{"label":"child"}' style="position:absolute;left:200px;top:100px;width:100px;height:40px"></div>
<script>
  const bits = document.getElementById('bits');
  for (let b = 0; b < 8; b++) {
    const el = document.createElement('div');
    el.className = 'bit';
    el.style.left = b * 20 + 'px';
    bits.append(el);
  }
  window.__seekframe.onSeek((t) => {
    const index = Math.round(t * window.__seekframe.fps);
    [...bits.children].forEach((el, b) => { el.style.background = (index >> (7 - b)) & 1 ? '#fff' : '#000'; });
  });
</script>
</body></html>`;

export const STUDIO_CARD = `<!doctype html>
<html data-composition-id="card" data-width="100" data-height="40" data-duration="1"
  data-composition-variables='[{"id":"label","type":"string","label":"Label","default":"x"},{"id":"tint","type":"color","label":"Tint","default":"#00ff00"}]'>
<head></head>
<body style="margin:0"><span id="label" style="font:12px sans-serif"></span>
<script>
  const { label, tint } = window.__seekframe.getVariables();
  const el = document.getElementById('label');
  el.textContent = label;
  el.style.color = tint;
</script></body></html>`;

/** Writes the project; the video is made here with ffmpeg (64x36, 13 frames at 10 fps = 1.3 s). */
export async function writeStudioProject(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'index.html'), STUDIO_INDEX);
  await writeFile(path.join(dir, 'card.html'), STUDIO_CARD);
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x36:rate=10',
    '-frames:v',
    '13',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-y',
    path.join(dir, 'clip.mp4'),
  ]);
}

/** The 1-based line of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

/** Reads the index the composition painted, from RGB(A) pixels of a frame `width` wide at scale 1. */
export function readBits(pixels: Uint8Array | Buffer, width: number, channels: 3 | 4): number {
  let index = 0;
  for (let b = 0; b < 8; b++) {
    const i = (15 * width + b * 20 + 10) * channels;
    const luma = (pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) / 3;
    index = (index << 1) | (luma > 128 ? 1 : 0);
  }
  return index;
}
