import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameEncoder, findFfmpeg } from '@seekframe/engine';
import { AlphaWatch, alphaLostError, sampleIndices, type AlphaFormat } from '../src/render/output-alpha.js';

const run = promisify(execFile);
const W = 64;
const H = 48;
const FRAMES = 9;
const FPS = { num: 10, den: 1 };
let dir: string;
let ffmpeg: string;
let frames: Buffer[];
let pngDir: string;

/**
 * Frame i is red with its left 4 * (i + 1) columns fully transparent: each frame has its own
 * transparent share, so a check that compared the wrong frame of the output would see it.
 */
function transparentFrame(i: number, opaque = false): Buffer {
  const png = new PNG({ width: W, height: H });
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) png.data.set([255, 0, 0, !opaque && x < 4 * (i + 1) ? 0 : 255], (y * W + x) * 4);
  }
  // An opaque frame as Chromium captures it: an RGB PNG, no alpha channel at all.
  return PNG.sync.write(png, opaque ? { colorType: 2 } : {});
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seekframe-alpha-'));
  ffmpeg = (await findFfmpeg()).ffmpeg;
  frames = Array.from({ length: FRAMES }, (_, i) => transparentFrame(i));
  pngDir = path.join(dir, 'source');
  await mkdir(pngDir);
  await Promise.all(frames.map((frame, i) => writeFile(path.join(pngDir, `f_${String(i + 1).padStart(3, '0')}.png`), frame)));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Our own encoder, as a render writes the format. */
async function encodeKeepingAlpha(format: AlphaFormat, name: string): Promise<string> {
  const output = path.join(dir, name);
  const encoder = createFrameEncoder({ format, output, width: W, height: H, fps: FPS, inputFormat: 'png', quality: 'draft', ffmpeg });
  for (const frame of frames) await encoder.write(frame);
  return (await encoder.finish()).output;
}

/** The same frames encoded without alpha on purpose: what a broken encoder setting would give. */
async function encodeDroppingAlpha(format: 'webm' | 'mov', name: string): Promise<string> {
  const output = path.join(dir, name);
  const codec =
    format === 'webm'
      ? ['-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', '-deadline', 'realtime']
      : ['-c:v', 'prores_ks', '-profile:v', '4444', '-pix_fmt', 'yuv444p10le'];
  await run(ffmpeg, ['-v', 'error', '-y', '-framerate', '10', '-i', path.join(pngDir, 'f_%03d.png'), ...codec, output]);
  return output;
}

function watchAll(source: Buffer[] = frames): AlphaWatch {
  const watch = new AlphaWatch(source.length);
  source.forEach((frame, i) => watch.observe(i, frame));
  return watch;
}

const encodedOf = (format: AlphaFormat, file: string) => ({ format, path: file, width: W, height: H, fps: FPS, ffmpeg });

describe('AlphaWatch (decode-level alpha check)', () => {
  it('samples first, last and evenly between', () => {
    expect(sampleIndices(9)).toEqual([0, 4, 8]);
    expect(sampleIndices(100)).toEqual([0, 50, 99]);
    expect(sampleIndices(2)).toEqual([0, 1]);
    expect(sampleIndices(0)).toEqual([]);
  });

  for (const format of ['webm', 'mov', 'png-sequence'] as const) {
    it(`${format} written by the render's encoder keeps alpha, frame for frame`, async () => {
      const file = await encodeKeepingAlpha(format, format === 'png-sequence' ? 'frames' : `kept.${format}`);
      const verdict = await watchAll().verify(encodedOf(format, file));
      expect(verdict).toMatchObject({ kept: true, lost: false, opaqueSource: false });
      expect(verdict.samples.map((s) => s.index)).toEqual([0, 4, 8]);
      // Each decoded frame has the share of its own source frame: the right frame was compared.
      for (const sample of verdict.samples) {
        expect(sample.source).toBeCloseTo((4 * (sample.index + 1)) / W, 3);
        expect(Math.abs(sample.output - sample.source)).toBeLessThan(0.04);
      }
    });
  }

  it("canvas capture's raw BGRA frames are checked the same way: kept by the render's encoder, lost when dropped", async () => {
    const raw = frames.map((frame) => {
      const rgba = PNG.sync.read(frame).data;
      const bgra = Buffer.alloc(rgba.length);
      for (let i = 0; i < rgba.length; i += 4) bgra.set([rgba[i + 2]!, rgba[i + 1]!, rgba[i]!, rgba[i + 3]!], i);
      return bgra;
    });
    const watch = new AlphaWatch(raw.length, { width: W, height: H });
    raw.forEach((frame, i) => watch.observe(i, frame));
    const output = path.join(dir, 'raw.webm');
    const encoder = createFrameEncoder({
      format: 'webm',
      output,
      width: W,
      height: H,
      fps: FPS,
      inputFormat: 'bgra',
      quality: 'draft',
      ffmpeg,
    });
    for (const frame of raw) await encoder.write(frame);
    await encoder.finish();
    const kept = await watch.verify(encodedOf('webm', output));
    expect(kept).toMatchObject({ kept: true, lost: false });
    for (const sample of kept.samples) expect(sample.source).toBeCloseTo((4 * (sample.index + 1)) / W, 3);
    const lost = await watch.verify(encodedOf('webm', await encodeDroppingAlpha('webm', 'raw-lost.webm')));
    expect(lost).toMatchObject({ kept: false, lost: true });
  });

  for (const format of ['webm', 'mov'] as const) {
    it(`${format} encoded without alpha is caught, whatever the container says`, async () => {
      const file = await encodeDroppingAlpha(format, `lost.${format}`);
      const verdict = await watchAll().verify(encodedOf(format, file));
      expect(verdict).toMatchObject({ kept: false, lost: true });
      expect(verdict.samples.every((s) => s.output === 0)).toBe(true);
      const error = alphaLostError(verdict, { format, fps: FPS }, `The ${format} output of index.html`);
      expect(error.code).toBe('alpha-lost');
      expect(error.message).toMatch(
        new RegExp(
          `The ${format} output of index.html lost its alpha channel: frame 8 \\(0.80 s\\) is 56% transparent in the page but 0% in the decoded ${format}`,
        ),
      );
      expect(error.details).toMatchObject({ frame: 8, format });
    });
  }

  it('an ffmpeg without the libvpx-vp9 decoder gives no verdict, and says why', async () => {
    const file = await encodeKeepingAlpha('webm', 'no-decoder.webm');
    // The real ffmpeg, asked for a decoder it does not have.
    const wrapper = path.join(dir, 'ffmpeg-without-libvpx');
    await writeFile(
      wrapper,
      `#!${process.execPath}\nconst { spawnSync } = require('node:child_process');\nconst args = process.argv.slice(2).map((a) => (a === 'libvpx-vp9' ? 'libvpx-vp9-absent' : a));\nconst r = spawnSync(${JSON.stringify(ffmpeg)}, args, { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`,
    );
    await chmod(wrapper, 0o755);
    const verdict = await watchAll().verify({ ...encodedOf('webm', file), ffmpeg: wrapper });
    expect(verdict).toMatchObject({ kept: false, lost: false, samples: [] });
    expect(verdict.skipped).toBe(`${wrapper} has no libvpx-vp9 decoder, the only one that reads VP9 alpha`);
  });

  it('captured frames that mix RGBA and RGB PNGs (an opaque clip over part of the range) give a verdict on every sample', async () => {
    // Frames 0 and 8 see-through, frame 4 opaque: the piped PNGs change pixel format twice.
    const mixed = frames.map((frame, i) => (i === 4 ? transparentFrame(i, true) : frame));
    const folder = path.join(dir, 'mixed');
    const encoder = createFrameEncoder({
      format: 'png-sequence',
      output: folder,
      width: W,
      height: H,
      fps: FPS,
      inputFormat: 'png',
      quality: 'draft',
      ffmpeg,
    });
    for (const frame of mixed) await encoder.write(frame);
    await encoder.finish();
    const verdict = await watchAll(mixed).verify(encodedOf('png-sequence', folder));
    expect(verdict.skipped).toBeUndefined();
    expect(verdict).toMatchObject({ kept: true, lost: false, opaqueSource: false });
    expect(verdict.samples.map((s) => [s.index, s.source, s.output])).toEqual([
      [0, 4 / W, 4 / W],
      [4, 0, 0],
      [8, 36 / W, 36 / W],
    ]);
    // The same captured frames against a webm that dropped alpha: the loss is seen, not skipped.
    const lost = await watchAll(mixed).verify(encodedOf('webm', await encodeDroppingAlpha('webm', 'lost-mixed.webm')));
    expect(lost).toMatchObject({ kept: false, lost: true });
    expect(lost.samples).toHaveLength(3);
  });

  it('an opaque page has nothing to lose: no verdict of loss', async () => {
    const opaque = Array.from({ length: FRAMES }, (_, i) => transparentFrame(i, true));
    const file = await encodeDroppingAlpha('webm', 'opaque.webm');
    const verdict = await watchAll(opaque).verify(encodedOf('webm', file));
    expect(verdict).toMatchObject({ kept: false, lost: false, opaqueSource: true });
  });
});
