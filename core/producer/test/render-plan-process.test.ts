import { execFile } from 'node:child_process';
import { cp, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRender, renderFrames, type RenderPlan } from '../src/index.js';
import { frameIndexProject, readFrameIndex } from './helpers/fixtures.js';
import { tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const FPS = 10;
const FRAMES = 20;

/**
 * Besides its index, each frame paints two grey blocks a render on another machine must get
 * right: the tenths of seconds of the page's Date.now() (the virtual clock: the plan's epoch plus
 * the frame's time) and a Math.random() drawn once at load (the plan's seed).
 */
const CLOCK_AND_RANDOM = `
<div id="clock" style="position:absolute;left:0;top:60px;width:80px;height:30px"></div>
<div id="random" style="position:absolute;left:80px;top:60px;width:80px;height:30px"></div>
<script>
  const drawn = Math.floor(Math.random() * 256);
  document.getElementById('random').style.background = 'rgb(' + drawn + ',' + drawn + ',' + drawn + ')';
  window.__seekframe.onSeek(() => {
    const v = Math.floor(Date.now() / 100) % 256;
    document.getElementById('clock').style.background = 'rgb(' + v + ',' + v + ',' + v + ')';
  });
</script>`;

let project: { dir: string; cleanup(): Promise<void> };
let plan: RenderPlan;
let whole: string;

beforeAll(async () => {
  project = await tempProject(frameIndexProject({ duration: FRAMES / FPS, fps: FPS, extraBody: CLOCK_AND_RANDOM }));
  plan = await planRender({ projectDir: project.dir, format: 'png-sequence', workers: 1 });
  whole = path.join(project.dir, 'out', 'whole');
  await renderFrames(plan, { start: 0, end: FRAMES }, { kind: 'output', path: whole }, { projectDir: project.dir });
}, 180_000);
afterAll(async () => project?.cleanup());

async function rgba(file: string): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 16 << 20,
  });
  return stdout;
}

describe('a plan rendered in a second process', () => {
  it('gives the same pixels as the whole render, Date.now() and Math.random() included', async () => {
    // The chunk has only the plan's JSON and its own copy of the project, like a Lambda's /tmp.
    const copy = path.join(project.dir, '..', `${path.basename(project.dir)}-copy`);
    await cp(project.dir, copy, { recursive: true, filter: (source) => !source.includes(`${path.sep}out`) });
    const planFile = path.join(project.dir, 'plan.json');
    await writeFile(planFile, JSON.stringify(plan));
    const piece = path.join(project.dir, 'out', 'piece');
    const { stdout } = await run('npx', ['tsx', path.join(here, 'helpers', 'render-range-process.ts'), planFile, copy, '11', '17', piece], {
      cwd: path.join(here, '..'),
      maxBuffer: 16 << 20,
    });
    expect(JSON.parse(stdout)).toMatchObject({ frames: 6, output: piece });

    const names = (await readdir(piece)).sort();
    expect(names).toEqual([
      'frame_000012.png',
      'frame_000013.png',
      'frame_000014.png',
      'frame_000015.png',
      'frame_000016.png',
      'frame_000017.png',
    ]);
    for (const [n, name] of names.entries()) {
      const frame = 11 + n;
      const mine = await rgba(path.join(piece, name));
      const reference = await rgba(path.join(whole, name));
      expect(readFrameIndex(mine), name).toBe(frame);
      // The clock block shows the plan's epoch plus the frame's time, not this process's wall clock.
      const clock = mine[(75 * 160 + 40) * 3]!;
      expect(clock, `${name} clock`).toBe(Math.floor((plan.epochMs + (frame * 1000) / FPS) / 100) % 256);
      expect(mine.equals(reference), `${name} pixels`).toBe(true);
    }
    await run('rm', ['-rf', copy]);
  }, 180_000);
});
