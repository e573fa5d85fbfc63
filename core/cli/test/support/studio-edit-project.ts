import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The studio editing tests' project (10 fps, 320x180, 3 s): a start-after-id chain, a clip inside
 * another (stacked on the picture), a sub-composition with a clip of its own, and a declared
 * variable. Frame i paints its index as 8 binary blocks in the top 30 px (readBits).
 *   track 0: intro [0, 1), title "intro + 0.5" [1.5, 2.5)
 *   track 1: panel [0, 3) holding chip [1, 2)
 *   track 2: sub.html [0, 3), its dot [0.5, 1.5)
 *   track 3: tone.wav, 1 s of a 440 Hz tone at half volume [0, 1)
 */
export const EDIT_INDEX = `<!doctype html>
<html data-composition-id="edit" data-width="320" data-height="180" data-duration="3" data-fps="10"
  data-composition-variables='[
    {"id": "accent", "type": "color", "label": "Accent", "default": "#aa3333"}
  ]'>
<head><style>
  html, body { margin: 0; width: 320px; height: 180px; background: #202020; overflow: hidden; }
  .bit { position: absolute; top: 0; width: 20px; height: 30px; background: #000; }
  .box { position: absolute; top: 50px; height: 40px; color: #fff; font: 12px sans-serif; }
</style></head>
<body>
<div id="bits"></div>
<!-- track 0: the title follows the intro -->
<div id="intro" class="box" style="left:10px;width:60px;background:#3333aa" data-start="0" data-duration="1" data-track-index="0">intro</div>
<div id="title"   class="box"
     style="left:80px;width:60px;background:#33aa33"
     data-start="intro + 0.5" data-duration="1" data-track-index="0">title</div>
<div id="panel" data-start="0" data-track-index="1" style="position:absolute;left:200px;top:40px;width:100px;height:100px;background:#555">
  <div id="chip" data-start="1" data-duration="1" style="position:absolute;left:20px;top:20px;width:40px;height:40px"></div>
</div>
<div id="sub" data-composition-id="sub" data-composition-src="sub.html" data-start="0" data-duration="3" data-track-index="2"
     style="position:absolute;left:10px;top:100px;width:120px;height:60px"></div>
<audio id="tone" src="tone.wav" data-start="0" data-track-index="3"></audio>
<script>
  const bits = document.getElementById('bits');
  for (let b = 0; b < 8; b++) {
    const el = document.createElement('div');
    el.className = 'bit';
    el.style.left = b * 20 + 'px';
    bits.append(el);
  }
  document.getElementById('chip').style.background = window.__seekframe.getVariables().accent;
  window.__seekframe.onSeek((t) => {
    const index = Math.round(t * window.__seekframe.fps);
    [...bits.children].forEach((el, b) => { el.style.background = (index >> (7 - b)) & 1 ? '#fff' : '#000'; });
  });
</script>
</body></html>`;

export const EDIT_SUB = `<!doctype html>
<html data-composition-id="sub" data-width="120" data-height="60" data-duration="3">
<head></head>
<body style="margin:0;background:#123">
<div id="dot" data-start="0.5" data-duration="1" style="position:absolute;left:10px;top:10px;width:30px;height:30px;background:#fc0"></div>
</body></html>`;

export async function writeEditProject(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'index.html'), EDIT_INDEX);
  await writeFile(path.join(dir, 'sub.html'), EDIT_SUB);
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'aevalsrc=0.5*sin(440*2*PI*t):d=1',
    '-ar',
    '8000',
    '-y',
    path.join(dir, 'tone.wav'),
  ]);
}
