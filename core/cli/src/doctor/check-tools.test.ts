import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { checkBrowser, checkEncoders, checkFfmpeg } from './check-tools.js';

const allEncoders = { libx264: true, 'libvpx-vp9': true, prores_ks: true, gif: true, aac: true, libopus: true, png: true };

describe('browser check', () => {
  const shell = {
    path: '/usr/lib/chromium/chromium-headless-shell',
    source: 'system',
    kind: 'headless-shell',
    version: '156.0',
    supportsBeginFrame: true,
  } as const;

  it('names the binary, its version and where it came from', () => {
    const [browser, beginFrame] = checkBrowser({ ...shell, wrapper: '/usr/bin/chromium-headless-shell' });
    expect(browser).toMatchObject({
      status: 'ok',
      summary: 'headless-shell 156.0 at /usr/lib/chromium/chromium-headless-shell (system, via /usr/bin/chromium-headless-shell)',
    });
    expect(beginFrame?.status).toBe('ok');
  });

  it('warns when beginFrame is missing and fails when no browser is found', () => {
    const [, beginFrame] = checkBrowser({ ...shell, kind: 'chromium', supportsBeginFrame: false });
    expect(beginFrame).toMatchObject({ status: 'warn' });
    expect(beginFrame?.fix).toContain('chromium-headless-shell');
    const missing = checkBrowser(new SeekframeError('browser-not-found', 'No Chromium was found. Run setup.'));
    expect(missing).toEqual([
      { id: 'browser', title: 'Chromium', status: 'fail', summary: 'not found', fix: 'No Chromium was found. Run setup.' },
    ]);
  });
});

describe('ffmpeg checks', () => {
  it('is ok with every encoder', () => {
    const results = checkFfmpeg({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', version: '5.1', encoders: allEncoders });
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('warns when an optional format lacks its encoder and fails without H.264', () => {
    const noVp9 = checkEncoders({ ...allEncoders, 'libvpx-vp9': false });
    expect(noVp9.status).toBe('warn');
    expect(noVp9.summary).toBe('unavailable formats: webm (needs libvpx-vp9)');
    const noX264 = checkEncoders({ ...allEncoders, libx264: false, gif: false });
    expect(noX264.status).toBe('fail');
    expect(noX264.summary).toBe('unavailable formats: mp4 (needs libx264); gif (needs gif)');
  });

  it('fails when ffmpeg is missing', () => {
    expect(checkFfmpeg(new Error('ffmpeg was not found on PATH.'))[0]).toMatchObject({
      status: 'fail',
      fix: 'ffmpeg was not found on PATH.',
    });
  });
});
