import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { createBrowserPool, type BrowserPool } from '@seekframe/engine';
import { renderComposition, renderStills, type RenderEvent } from '../src/index.js';
import { readFrameIndex } from './helpers/fixtures.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

/**
 * renderStills (`seekframe still`): each PNG is the very file a png-sequence render writes for
 * that frame (same plan, capture and encoder), with the same variables and scale. The page
 * paints its own frame index (as the self-indexing fixture does) over a colour from a variable,
 * on a transparent background, so a wrong frame, a lost variable or lost alpha all show.
 */
const FPS = 10;
const FRAMES = 30;
const VARIABLES = { tint: '#ff8800' };

let project: { dir: string; cleanup(): Promise<void> };
let pool: BrowserPool;
let sequence: string;

const blocks = Array.from(
  { length: 8 },
  (_, b) => `<div class="bit" style="position:absolute;left:${b * 20}px;top:0;width:20px;height:60px;background:#000"></div>`,
).join('');

beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      duration: FRAMES / FPS,
      fps: FPS,
      variables: [{ id: 'tint', type: 'color', label: 'Tint', default: '#0000ff' }],
      head: '<style>html,body{background:transparent !important}</style>',
      body: `${blocks}<div id="tint" style="position:absolute;left:0;top:70px;width:120px;height:12px;border-radius:6px"></div>
<script>
  const bits = [...document.querySelectorAll('.bit')];
  document.getElementById('tint').style.background = window.__seekframe.getVariables().tint;
  window.__seekframe.onSeek((t) => {
    const index = Math.round(t * window.__seekframe.fps);
    bits.forEach((el, b) => { el.style.background = (index >> (7 - b)) & 1 ? '#fff' : '#000'; });
    document.getElementById('tint').style.width = (40 + index * 3) + 'px';
  });
</script>`,
    }),
  });
  pool = createBrowserPool();
  sequence = (
    await renderComposition(
      {
        projectDir: project.dir,
        output: path.join(project.dir, 'out', 'sequence'),
        format: 'png-sequence',
        workers: 1,
        variables: VARIABLES,
      },
      undefined,
      { browsers: pool },
    )
  ).output;
}, 180_000);
afterAll(async () => {
  await pool?.close();
  await project?.cleanup();
});

const frameFile = (dir: string, frame: number) => path.join(dir, `frame_${String(frame + 1).padStart(6, '0')}.png`);

describe('renderStills', () => {
  it('several stills: each PNG is byte for byte that frame of the png-sequence render, named by frame', async () => {
    const events: RenderEvent[] = [];
    const result = await renderStills(
      {
        projectDir: project.dir,
        output: path.join(project.dir, 'out', 'shots', 'hero.png'),
        at: [{ time: 1.5 }, { frame: 7 }, { time: '0s' }, { time: '1510ms' }, { frame: 29 }],
        variables: VARIABLES,
      },
      (event) => events.push(event),
      { browsers: pool },
    );
    const shots = path.join(project.dir, 'out', 'shots');
    // 1.51 s shows frame 15 too: one file for both. Frames are padded to the width of the last (29).
    expect((await readdir(shots)).sort()).toEqual(['hero-00.png', 'hero-07.png', 'hero-15.png', 'hero-29.png']);
    expect(result.stills.map((s) => [s.at, s.frame, path.basename(s.output)])).toEqual([
      [{ time: 1.5 }, 15, 'hero-15.png'],
      [{ frame: 7 }, 7, 'hero-07.png'],
      [{ time: 0 }, 0, 'hero-00.png'],
      [{ time: 1.51 }, 15, 'hero-15.png'],
      [{ frame: 29 }, 29, 'hero-29.png'],
    ]);
    for (const still of result.stills) {
      const own = await readFile(still.output);
      expect(own.equals(await readFile(frameFile(sequence, still.frame))), `${path.basename(still.output)} = frame ${still.frame}`).toBe(
        true,
      );
      expect(still.size).toBe(own.length);
      expect(still.time).toBeCloseTo(still.frame / FPS, 9);
    }
    // And each is the frame it says (decoded, the painted index).
    expect((await decodeFrames(path.join(shots, 'hero-07.png'), 160, 90)).map((f) => readFrameIndex(f))).toEqual([7]);
    expect(result).toMatchObject({ width: 160, height: 90, fps: { num: FPS, den: 1 } });
    const complete = events.at(-1);
    expect(complete).toMatchObject({ type: 'complete', output: result.stills[0]!.output, stills: result.stills });
    // One browser, and no hidden folder left beside the stills.
    expect((await readdir(shots)).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 120_000);

  it('one still goes to output itself; --scale gives that frame of a scaled png-sequence render', async () => {
    const output = path.join(project.dir, 'out', 'one.png');
    const still = await renderStills(
      { projectDir: project.dir, output, at: [{ time: '2.05' }], variables: VARIABLES, scale: 2 },
      undefined,
      {
        browsers: pool,
      },
    );
    expect(still.stills).toEqual([expect.objectContaining({ frame: 20, output })]);
    expect(still).toMatchObject({ width: 320, height: 180 });
    const scaled = await renderComposition(
      {
        projectDir: project.dir,
        output: path.join(project.dir, 'out', 'scaled'),
        format: 'png-sequence',
        workers: 1,
        variables: VARIABLES,
        scale: 2,
        frames: { start: 20, end: 20 },
      },
      undefined,
      { browsers: pool },
    );
    expect((await readFile(output)).equals(await readFile(path.join(scaled.output, 'frame_000001.png')))).toBe(true);
  }, 120_000);

  it('a composition whose length its timeline decides: the still is found once the page ran it', async () => {
    const timeline = path.join(import.meta.dirname, 'fixtures', 'hyperframes', 'timeline-length');
    const output = path.join(project.dir, 'out', 'timeline.png');
    // 1.5 s from the GSAP timeline at 30 fps: frames 0-44.
    const still = await renderStills({ projectDir: timeline, output, at: [{ time: 1.2 }] }, undefined, { browsers: pool });
    expect(still.stills).toEqual([expect.objectContaining({ frame: 36, output })]);
    const range = await renderComposition(
      {
        projectDir: timeline,
        output: path.join(project.dir, 'out', 'timeline-36'),
        format: 'png-sequence',
        workers: 1,
        frames: { start: 36, end: 36 },
      },
      undefined,
      { browsers: pool },
    );
    expect((await readFile(output)).equals(await readFile(path.join(range.output, 'frame_000001.png')))).toBe(true);
    const late = await renderStills({ projectDir: timeline, output, at: [{ time: 1.5 }] }, undefined, { browsers: pool }).catch(
      (e: unknown) => e,
    );
    expect((late as Error).message).toContain('time (--time) 1.5s is past the end: the composition is 1.5 s long (45 frames at 30 fps)');
  }, 120_000);

  it('refuses a time past the end, a frame past the last and a non-PNG output, naming each, and writes nothing', async () => {
    const late = await renderStills({
      projectDir: project.dir,
      output: path.join(project.dir, 'out', 'late.png'),
      at: [{ time: 3 }],
    }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(SeekframeError);
    expect(late).toMatchObject({ code: 'invalid-options', details: { field: 'time', totalFrames: FRAMES } });
    expect((late as Error).message).toContain('time (--time) 3s is past the end: the composition is 3 s long (30 frames at 10 fps)');
    const frame = await renderStills({ projectDir: project.dir, at: [{ frame: 30 }] }).catch((e: unknown) => e);
    expect((frame as Error).message).toContain('frame (--frame) 30 is past the end');
    const jpeg = await renderStills({ projectDir: project.dir, output: 'x.jpg', at: [{ frame: 1 }] }).catch((e: unknown) => e);
    expect((jpeg as Error).message).toMatch(/output must name a \.png file/);
    const none = await renderStills({ projectDir: project.dir, at: [] }).catch((e: unknown) => e);
    expect((none as Error).message).toMatch(/at must name at least one time or frame/);
    expect(await readdir(path.join(project.dir, 'out'))).not.toContain('late.png');
  });
});
