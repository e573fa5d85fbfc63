import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRender, renderFrames, type RenderFramesResult, type RenderPlan } from '../src/index.js';
import { ffmpeg } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
let project: { dir: string; cleanup(): Promise<void> };
let plan: RenderPlan;
let whole: string;
let wholeResult: RenderFramesResult;

beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      duration: 3,
      fps: 10,
      head: '<style>html,body{background:transparent !important}</style>',
      body: '<video src="clip.mp4" muted data-start="0.5" data-duration="2.5" data-media-start="0.3" style="position:absolute;left:0;top:0;width:160px;height:90px"></video>',
    }),
  });
  // 4 s of a moving test pattern: every source frame differs.
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25:duration=4', '-pix_fmt', 'yuv420p', path.join(project.dir, 'clip.mp4')]);
  plan = await planRender({ projectDir: project.dir, format: 'png-sequence', workers: 1 });
  whole = path.join(project.dir, 'out', 'whole');
  wholeResult = await renderFrames(plan, { start: 0, end: plan.totalFrames }, { kind: 'output', path: whole }, { projectDir: project.dir });
}, 180_000);
afterAll(async () => project?.cleanup());

async function rgb(file: string): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 16 << 20,
  });
  return stdout;
}

describe('a transparent png-sequence with an opaque <video> clip', () => {
  it('the alpha check gives a verdict: frame 0 (before the clip) is see-through, the frames under the clip are not', () => {
    // Chromium writes the frames the clip covers as RGB PNGs, frame 0 as RGBA: the check decodes both.
    expect(wholeResult.alpha?.skipped).toBeUndefined();
    expect(wholeResult.alpha).toMatchObject({ kept: true, lost: false, opaqueSource: false });
    expect(wholeResult.alpha!.samples.map((s) => [s.index, s.source, s.output])).toEqual([
      [0, 1, 1],
      [15, 0, 0],
      [29, 0, 0],
    ]);
  });
});

describe('a range with a <video> clip', () => {
  it('extracts only the source frames its window shows, and shows the same frames as the whole render', async () => {
    const workDir = path.join(project.dir, 'work');
    const piece = path.join(project.dir, 'out', 'piece');
    await renderFrames(plan, { start: 20, end: 25 }, { kind: 'segment', path: piece }, { projectDir: project.dir, workDir });
    // Frames 20-24 show source frames 18-22 ((t - 0.5 + 0.3) at 10 fps): those with a margin of 2
    // (files 17-25), and the frame the page shows before its first seek (t = 0: file 1). Not all 40.
    const extracted = (await readdir(path.join(workDir, 'video-1'))).sort();
    const expected = [1, 17, 18, 19, 20, 21, 22, 23, 24, 25].map((n) => `frame_${String(n).padStart(6, '0')}.jpg`);
    expect(extracted).toEqual(expected);
    const names = (await readdir(piece)).sort();
    expect(names).toEqual(['frame_000021.png', 'frame_000022.png', 'frame_000023.png', 'frame_000024.png', 'frame_000025.png']);
    for (const name of names) expect((await rgb(path.join(piece, name))).equals(await rgb(path.join(whole, name))), name).toBe(true);
    // The clip's frames really change across the range (the comparison would be empty otherwise).
    expect((await rgb(path.join(piece, names[0]!))).equals(await rgb(path.join(piece, names.at(-1)!)))).toBe(false);
  }, 180_000);
});
