import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRate, probeMedia } from '../src/media/probe-media.js';
import { ff, pngFrames, tempDir } from './media-fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

describe('probeMedia', () => {
  it('reads a video with sound: size, fps, duration, streams', async () => {
    const file = path.join(dir, 'av.mp4');
    await ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=32x18:rate=25:duration=1',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-pix_fmt',
      'yuv420p',
      '-shortest',
      file,
    ]);
    const info = await probeMedia(file);
    expect(info).toMatchObject({ file, width: 32, height: 18, fps: 25, hasVideo: true, hasAudio: true, hasAlpha: false });
    expect(info.duration).toBeCloseTo(1, 1);
    expect(info.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
  });

  it('sees alpha in an RGBA video', async () => {
    // A video container: still images are not media sources (image2 is not on the demuxer whitelist).
    const png = path.join(dir, 'a.png');
    await writeFile(png, pngFrames(1, 8, 8, true)[0]!);
    const file = path.join(dir, 'a.mov');
    await ff(['-i', png, '-c:v', 'png', '-pix_fmt', 'rgba', file]);
    const info = await probeMedia(file);
    expect(info.hasAlpha).toBe(true);
    expect(info.hasAudio).toBe(false);
  });

  it('names the file it cannot read', async () => {
    const file = path.join(dir, 'not-media.txt');
    await writeFile(file, 'hello');
    await expect(probeMedia(file)).rejects.toMatchObject({
      code: 'media-probe-failed',
      stage: 'media',
      message: expect.stringContaining(file),
    });
  });

  it('parses frame rates', () => {
    expect(parseRate('30000/1001')).toBeCloseTo(29.97, 2);
    expect(parseRate('0/0')).toBeUndefined();
    expect(parseRate(undefined)).toBeUndefined();
  });
});
