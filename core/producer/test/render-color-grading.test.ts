import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames, ffmpeg, pixel } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

type RGB = [number, number, number];

/** Every swatch is a 20×20 box; `at(i)` is the centre of box i in the top row. */
const box = (i: number, attrs: string, tag = 'img', src = 'swatch.png'): string =>
  `<${tag} src="${src}" ${attrs} style="position:absolute;left:${i * 20}px;top:0;width:20px;height:20px;display:block"${tag === 'video' ? ' muted></video>' : '>'}`;
const at = (i: number): [number, number] => [i * 20 + 10, 10];

const grading = (json: unknown): string => `data-color-grading='${JSON.stringify(json)}'`;

/** A red↔blue swapping 3D LUT (size 2): output (r,g,b) = input (b,g,r). */
const SWAP_LUT = [
  'TITLE "swap red and blue"',
  'LUT_3D_SIZE 2',
  ...[0, 1].flatMap((b) => [0, 1].flatMap((g) => [0, 1].map((r) => `${b} ${g} ${r}`))),
].join('\n');

const host = (id: string, left: number, warm: number): string =>
  `<div id="${id}" data-composition-id="${id}" data-composition-src="child.html" data-variable-values='{"warm":${warm}}' style="position:absolute;left:${left}px;top:50px;width:20px;height:20px"></div>`;

let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      duration: 0.2,
      fps: 10,
      variables: [
        { id: 'accent', label: 'Accent', type: 'color', default: '#ff0000' },
        { id: 'hostSat', label: 'Host saturation', type: 'number', default: 0 },
      ],
      body: [
        box(0, ''),
        box(1, grading({ adjust: { exposure: 1 } })),
        box(2, grading({ adjust: { saturation: 0 } })),
        box(3, grading({ adjust: { temperature: 1 } })),
        box(4, grading({ lut: 'luts/swap.cube' }), 'img', 'red.png'),
        box(5, grading({ details: { vignette: 1, vignetteFeather: 0, vignetteColor: '$accent' } })),
        box(6, '', 'video', 'clip.mp4'),
        box(7, grading({ adjust: { saturation: 0 } }), 'video', 'clip.mp4'),
        host('cold', 0, -1),
        host('hot', 40, 1),
        // A graded host grades its instance's media; $hostSat is a variable of this (the host's) file.
        `<div id="plainhost" data-composition-id="plainhost" data-composition-src="plain.html" data-color-grading='{"adjust":{"saturation":"$hostSat"}}' style="position:absolute;left:80px;top:50px;width:20px;height:20px"></div>`,
      ].join('\n'),
    }),
    'child.html': composition({
      id: 'child',
      width: 20,
      height: 20,
      duration: 0.2,
      variables: [{ id: 'warm', label: 'Warm', type: 'number', default: 0, min: -1, max: 1 }],
      body: `<img src="swatch.png" data-color-grading='{"adjust":{"temperature":"$warm"}}' style="width:20px;height:20px;display:block">`,
    }),
    'plain.html': composition({
      id: 'plain',
      width: 20,
      height: 20,
      duration: 0.2,
      body: `<img src="swatch.png" style="width:20px;height:20px;display:block">`,
    }),
    'luts/swap.cube': SWAP_LUT,
  });
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x804020:s=8x8,format=rgb24', '-frames:v', '1', path.join(project.dir, 'swatch.png')]);
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0xff0000:s=8x8,format=rgb24', '-frames:v', '1', path.join(project.dir, 'red.png')]);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=0xc03020:s=16x16:d=1:r=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    path.join(project.dir, 'clip.mp4'),
  ]);
});
afterAll(async () => project?.cleanup());

async function render(
  name: string,
  options: { variables?: Record<string, unknown>; captureMode?: 'screenshot' | 'beginframe' } = {},
): Promise<Buffer[]> {
  const output = path.join(project.dir, name);
  const events: RenderEvent[] = [];
  await renderComposition({ projectDir: project.dir, output, format: 'png-sequence', workers: 1, ...options }, (e) => events.push(e));
  expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  const frames = await decodeFrames(path.join(output, 'frame_%06d.png'), 160, 90);
  expect(frames).toHaveLength(2);
  return frames;
}

const toLinear = (v: number): number => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
const near = (actual: RGB, expected: RGB, tolerance = 2): boolean => actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);

describe('data-color-grading in a real render (png-sequence, exact pixels; beginframe with chromium-headless-shell)', () => {
  let frames: Buffer[];
  beforeAll(async () => {
    frames = await render('default', { captureMode: 'beginframe' });
  }, 120_000);
  const px = (i: number, frame = 0): RGB => pixel(frames[frame]!, 160, ...at(i));

  it('leaves an ungraded image alone (the reference colour #804020)', () => {
    expect(px(0)).toSatisfy((p: RGB) => near(p, [128, 64, 32], 1));
  });

  it('exposure +1 doubles linear light in every channel', () => {
    const [r, g, b] = px(1);
    expect(toLinear(r) / toLinear(128)).toBeCloseTo(2, 1);
    expect(toLinear(g) / toLinear(64)).toBeCloseTo(2, 1);
    expect(toLinear(b) / toLinear(32)).toBeCloseTo(2, 1);
  });

  it('saturation 0 gives the Rec.709 luma grey', () => {
    const grey = Math.round(0.2126 * 128 + 0.7152 * 64 + 0.0722 * 32);
    expect(px(2)).toSatisfy((p: RGB) => near(p, [grey, grey, grey], 1));
  });

  it('temperature +1 raises red by a quarter and lowers blue by a quarter', () => {
    expect(px(3)).toSatisfy((p: RGB) => near(p, [160, 64, 24], 1));
  });

  it('a .cube LUT that swaps red and blue turns red into blue', () => {
    expect(px(4)).toSatisfy((p: RGB) => near(p, [0, 0, 255], 1));
  });

  it('a vignette coloured by $accent paints the corners in the declared default and keeps the centre', () => {
    expect(pixel(frames[0]!, 160, 101, 1)).toSatisfy((p: RGB) => near(p, [255, 0, 0], 3));
    expect(px(5)).toSatisfy((p: RGB) => near(p, [128, 64, 32], 1));
  });

  it('grades the pre-extracted frames a <video> shows in render mode', () => {
    const [r, , b] = px(6);
    expect(r - b, 'the ungraded video is clearly red').toBeGreaterThan(80);
    const graded = px(7);
    expect(Math.max(...graded) - Math.min(...graded), `graded video ${graded.join(',')} is grey`).toBeLessThanOrEqual(2);
  });

  it('grades each sub-composition instance with its own variables ($warm = -1 and +1)', () => {
    const cold = pixel(frames[0]!, 160, 10, 60);
    const hot = pixel(frames[0]!, 160, 50, 60);
    expect(cold).toSatisfy((p: RGB) => near(p, [96, 64, 40], 1));
    expect(hot).toSatisfy((p: RGB) => near(p, [160, 64, 24], 1));
  });

  it("a grading on a sub-composition host grades that instance's media, with the host file's variables", () => {
    const grey = Math.round(0.2126 * 128 + 0.7152 * 64 + 0.0722 * 32);
    expect(pixel(frames[0]!, 160, 90, 60)).toSatisfy((p: RGB) => near(p, [grey, grey, grey], 1));
  });

  it('a $accent reference follows --variables (render variables), in screenshot capture with Debian chromium too', async () => {
    const previous = process.env.SEEKFRAME_BROWSER;
    process.env.SEEKFRAME_BROWSER = '/usr/bin/chromium';
    let green: Buffer[];
    try {
      green = await render('green', { variables: { accent: '#00ff00' }, captureMode: 'screenshot' });
    } finally {
      if (previous === undefined) delete process.env.SEEKFRAME_BROWSER;
      else process.env.SEEKFRAME_BROWSER = previous;
    }
    expect(pixel(green[0]!, 160, 101, 1)).toSatisfy((p: RGB) => near(p, [0, 255, 0], 3));
    // Everything else is the same picture as the default render.
    expect(pixel(green[0]!, 160, ...at(3))).toEqual(px(3));
  }, 120_000);
});

describe('data-color-grading faults stop the render with a clear error', () => {
  it.each([
    // Lint passes (the default 0 is fine); the page finds the bad value when it resolves the reference.
    [
      'a variable value out of range',
      `{"adjust":{"exposure":"$ev"}}`,
      { ev: 50 },
      'ready-failed',
      '"adjust.exposure" must be a number from -5 to 5 (the value of variable "ev" is 50)',
    ],
    // The render lints first, so LUT files are checked before a browser starts.
    ['a missing LUT file', `{"lut":"luts/none.cube"}`, {}, 'lint-failed', 'media/missing-lut'],
    ['a broken LUT file', `{"lut":"luts/broken.cube"}`, {}, 'lint-failed', 'media/invalid-lut'],
  ])(
    '%s',
    async (_name, json, variables, code, text) => {
      const faulty = await tempProject({
        'index.html': composition({
          duration: 0.1,
          fps: 10,
          variables: [{ id: 'ev', label: 'Exposure', type: 'number', default: 0 }],
          body: `<img src="swatch.png" data-color-grading='${json}' style="width:20px;height:20px">`,
        }),
        'luts/broken.cube': 'LUT_3D_SIZE 2\n0 0 0\n',
      });
      try {
        await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x804020:s=8x8,format=rgb24', '-frames:v', '1', path.join(faulty.dir, 'swatch.png')]);
        const error = await renderComposition({
          projectDir: faulty.dir,
          output: path.join(faulty.dir, 'out.mp4'),
          workers: 1,
          variables,
        }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SeekframeError);
        expect((error as SeekframeError).code).toBe(code);
        expect((error as SeekframeError).message).toContain(text);
      } finally {
        await faulty.cleanup();
      }
    },
    120_000,
  );
});
