import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameEncoder } from '../src/encode/create-frame-encoder.js';
import { chooseVideoFrameFormat, extractVideoFrames } from '../src/media/extract-video-frames.js';
import { probeMedia } from '../src/media/probe-media.js';
import { ff, pngFrames, tempDir } from './media-fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
let testsrc: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  testsrc = path.join(dir, 'testsrc.mp4');
  // 1 s of 25 fps test pattern.
  await ff(['-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=25:duration=1', '-pix_fmt', 'yuv420p', testsrc]);
});
afterAll(async () => cleanup());

describe('extractVideoFrames', () => {
  it('takes frames at the render fps from t=0, 1-based names', async () => {
    const out = path.join(dir, 'frames-10');
    const result = await extractVideoFrames(testsrc, out, { fps: 10, format: 'jpg' });
    expect(result.count).toBe(10);
    expect(result.pattern).toBe('frame_%06d.jpg');
    const names = (await readdir(out)).sort();
    expect(names[0]).toBe('frame_000001.jpg');
    expect(names.at(-1)).toBe('frame_000010.jpg');
  });

  it('handles rational rates, scaling and replaces older frames', async () => {
    const out = path.join(dir, 'frames-30');
    await extractVideoFrames(testsrc, out, { fps: 10, format: 'png' });
    const result = await extractVideoFrames(testsrc, out, { fps: { num: 5, den: 1 }, format: 'png', width: 32, height: 18 });
    expect(result.count).toBe(5);
    expect((await readdir(out)).length).toBe(5);
    const image = PNG.sync.read(await readFile(path.join(out, 'frame_000001.png')));
    expect([image.width, image.height]).toEqual([32, 18]);
  });

  it('keeps alpha from a VP9 source (auto picks png)', async () => {
    const webm = path.join(dir, 'alpha.webm');
    const encoder = createFrameEncoder({
      format: 'webm',
      output: webm,
      width: 64,
      height: 36,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    for (const frame of pngFrames(5, 64, 36, true)) await encoder.write(frame);
    await encoder.finish();
    const probe = await probeMedia(webm);
    expect(chooseVideoFrameFormat('auto', probe)).toBe('png');
    const out = path.join(dir, 'alpha-frames');
    const result = await extractVideoFrames(webm, out, { fps: 10, format: 'png', probe });
    expect(result.count).toBe(5);
    const image = PNG.sync.read(await readFile(path.join(out, 'frame_000002.png')));
    expect(image.data[(10 * 64 + 60) * 4 + 3]).toBeLessThan(10);
    expect(image.data[(10 * 64 + 4) * 4 + 3]).toBeGreaterThan(245);
  });

  it('extracts only a window of frames, numbered and identical as in a full extraction', async () => {
    const full = path.join(dir, 'full-25');
    await extractVideoFrames(testsrc, full, { fps: 25, format: 'png' });
    const out = path.join(dir, 'window-25');
    const result = await extractVideoFrames(testsrc, out, { fps: 25, format: 'png', frames: { start: 7, end: 12 } });
    expect(result.count).toBe(5);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(['frame_000008.png', 'frame_000009.png', 'frame_000010.png', 'frame_000011.png', 'frame_000012.png']);
    for (const name of names) expect((await readFile(path.join(out, name))).equals(await readFile(path.join(full, name))), name).toBe(true);
    // A window past the source's end extracts nothing (the caller falls back to a full extraction).
    expect(
      (await extractVideoFrames(testsrc, path.join(dir, 'window-late'), { fps: 25, format: 'png', frames: { start: 40, end: 45 } })).count,
    ).toBe(0);
  });

  it('names the file when the source is not a video', async () => {
    await expect(extractVideoFrames(path.join(dir, 'missing.mp4'), path.join(dir, 'x'), { fps: 10, format: 'jpg' })).rejects.toMatchObject({
      code: 'media-probe-failed',
      message: expect.stringContaining('missing.mp4'),
    });
  });
});

describe('chooseVideoFrameFormat', () => {
  it('auto is jpg without alpha; explicit choices win', () => {
    expect(chooseVideoFrameFormat('auto', { hasAlpha: false })).toBe('jpg');
    expect(chooseVideoFrameFormat('auto', { hasAlpha: true })).toBe('png');
    expect(chooseVideoFrameFormat('jpg', { hasAlpha: true })).toBe('jpg');
    expect(chooseVideoFrameFormat('png', { hasAlpha: false })).toBe('png');
  });
});
