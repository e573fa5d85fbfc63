import { describe, expect, it } from 'vitest';
import { findFfmpeg, parseEncoders, parseFfmpegVersion } from '../src/system/find-ffmpeg.js';

describe('findFfmpeg', () => {
  it('finds the real ffmpeg/ffprobe on PATH with its encoders', async () => {
    const info = await findFfmpeg();
    expect(info.ffmpeg).toMatch(/ffmpeg$/);
    expect(info.ffprobe).toMatch(/ffprobe$/);
    expect(info.version).toMatch(/^\d+\.\d+/);
    expect(info.encoders).toEqual({
      libx264: true,
      'libvpx-vp9': true,
      prores_ks: true,
      gif: true,
      aac: true,
      libopus: true,
      png: true,
    });
  });
  it('honours SEEKFRAME_FFMPEG and fails clearly when it points nowhere', async () => {
    await expect(findFfmpeg({ env: { ...process.env, SEEKFRAME_FFMPEG: '/nope/ffmpeg' } })).rejects.toMatchObject({
      code: 'ffmpeg-not-found',
      message: expect.stringContaining('SEEKFRAME_FFMPEG points to /nope/ffmpeg'),
    });
  });
  it('fails with the fix when nothing is on PATH', async () => {
    await expect(findFfmpeg({ env: { PATH: '/nonexistent' } })).rejects.toMatchObject({
      code: 'ffmpeg-not-found',
      message: expect.stringContaining('apt-get install ffmpeg'),
    });
  });
});

describe('ffmpeg output parsing', () => {
  it('reads version and encoder lines', () => {
    expect(parseFfmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c)')).toBe('5.1.9-0+deb12u1');
    const enc = parseEncoders(' V....D libx264              libx264 H.264\n A....D aac                  AAC\n ------\n');
    expect(enc.libx264).toBe(true);
    expect(enc.aac).toBe(true);
    expect(enc.libopus).toBe(false);
  });
});
