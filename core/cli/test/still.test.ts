import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;

// 160x90, 0.5 s at 10 fps: five frames, each painting its index as a bar width and a colour from a
// variable, over a transparent page (a still keeps the page's alpha, as a png-sequence does).
const html = `<!doctype html>
<html data-composition-id="still" data-width="160" data-height="90" data-duration="0.5" data-fps="10"
  data-composition-variables='[{"id":"bg","label":"Bar","type":"color","default":"#0000ff"}]'>
<head><style>html,body{margin:0;width:160px;height:90px;background:transparent}</style></head>
<body><div id="bar" style="position:absolute;left:0;top:20px;height:30px"></div>
<script>
  const bar = document.getElementById('bar');
  bar.style.background = window.__seekframe.getVariables().bg;
  window.__seekframe.onSeek((t) => { bar.style.width = (10 + Math.round(t * 10) * 30) + 'px'; });
</script></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-still-'));
  await mkdir(path.join(dir, 'promo'));
  await writeFile(path.join(dir, 'promo', 'index.html'), html);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: os.homedir() };

describe('seekframe still', () => {
  it('writes the frame shown at --time: byte for byte the png-sequence render of that frame, variables included', async () => {
    const sequence = await runCli(
      ['render', 'promo', '--format', 'png-sequence', '-o', 'seq', '--variables', '{"bg":"#ff0000"}', '--workers', '1', '--quiet'],
      { cwd: dir, env },
    );
    expect(sequence.code).toBe(0);
    const still = await runCli(['still', 'promo', '--time', '250ms', '-o', 'shot.png', '--variables', '{"bg":"#ff0000"}'], {
      cwd: dir,
      env,
    });
    expect(still.stderr).toBe('');
    expect(still.code).toBe(0);
    // 0.25 s shows frame 2 (0.2 s to 0.3 s).
    expect(still.stdout).toMatch(/still shot\.png \(frame 2 at 0\.200 s, /);
    expect((await readFile(path.join(dir, 'shot.png'))).equals(await readFile(path.join(dir, 'seq', 'frame_000003.png')))).toBe(true);
    expect((await readFile(path.join(dir, 'shot.png'))).equals(await readFile(path.join(dir, 'seq', 'frame_000002.png')))).toBe(false);
  });

  it('--frames 0,4 writes numbered files beside -o; --json ends with complete listing them', async () => {
    const result = await runCli(['still', 'promo', '--frames', '0,4', '-o', 'shots/s.png', '--json'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect((await readdir(path.join(dir, 'shots'))).sort()).toEqual(['s-0.png', 's-4.png']);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { type: string; stills: { frame: number; output: string }[] };
    expect(last.type).toBe('complete');
    expect(last.stills.map((s) => [s.frame, path.basename(s.output)])).toEqual([
      [0, 's-0.png'],
      [4, 's-4.png'],
    ]);
  });

  it('refuses what cannot be a still with exit 2, naming the flag, and writes nothing', async () => {
    const cases: [string[], RegExp][] = [
      [[], /say which frame: --time 1\.5s, --frame 45/],
      [['--time', '1s', '--frame', '2'], /--time and --frame exclude each other/],
      [['--time', 'soon'], /--time "soon" is not a time; give seconds like 1\.5s, 1500ms or 1\.5/],
      [['--times', '0,x'], /--times item 2: "x" is not a time/],
      [['--time', '0.5s'], /time \(--time\) 0\.5s is past the end: the composition is 0\.5 s long \(5 frames at 10 fps\)/],
      [['--frame', '5'], /frame \(--frame\) 5 is past the end: the composition has 5 frames at 10 fps, numbered 0-4/],
      [['--frame', '1', '-o', 'x.jpg'], /--output must name a \.png file/],
      [['--frame', '1', '--scale', '9'], /--scale must be 1-4/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['still', 'promo', ...args, ...(args.includes('-o') ? [] : ['-o', 'refused.png'])], { cwd: dir, env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
    }
    expect(await readdir(dir)).not.toContain('refused.png');
  });
});
