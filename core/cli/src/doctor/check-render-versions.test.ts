import { describe, expect, it } from 'vitest';
import { checkImageVersions } from './check-render-versions.js';

const record = {
  debian: '12.15',
  packages: {
    'chromium-headless-shell': { version: '156.0.8078.108-1~deb12u1', preferred: '156.0.8078.79-1~deb12u1' },
    ffmpeg: { version: '7:5.1.9-0+deb12u1', preferred: '7:5.1.9-0+deb12u1' },
    'fonts-noto-core': { version: '20201225-1', preferred: '20201225-1' },
    tini: { version: '0.19.0-1+b3', preferred: null },
  },
  fallbacks: ['chromium-headless-shell=156.0.8078.79-1~deb12u1'],
};

describe('checkImageVersions', () => {
  it('outside an image there is nothing to check', () => {
    expect(checkImageVersions(null)).toEqual([]);
  });

  it('inside an image: the versions it holds, and which preferred pins the archive no longer had', () => {
    expect(checkImageVersions(record)).toEqual([
      {
        id: 'image',
        title: 'Seekframe image',
        status: 'ok',
        summary:
          "Debian 12.15: Chromium 156.0.8078.108-1~deb12u1, ffmpeg 7:5.1.9-0+deb12u1, Noto 20201225-1; built with the archive's current version instead of chromium-headless-shell=156.0.8078.79-1~deb12u1",
        details: record,
      },
    ]);
    expect(checkImageVersions({ ...record, fallbacks: [] })[0]!.summary).toMatch(/; every preferred version$/);
  });
});
