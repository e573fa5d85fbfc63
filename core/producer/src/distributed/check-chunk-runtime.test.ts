import { describe, expect, it } from 'vitest';
import type { BrowserInfo, FfmpegInfo } from '@seekframe/engine';
import type { SeekframeError } from '@seekframe/composition';
import { classifyFailure } from './classify-failure.js';
import { checkChunkRuntime } from './check-chunk-runtime.js';

const plan = {
  version: 1 as const,
  hash: 'h',
  width: 16,
  height: 16,
  fps: { num: 10, den: 1 },
  totalFrames: 10,
  format: 'mp4',
  versions: { seekframe: '0.1.0', chromium: '147.0.7727.0', ffmpeg: '5.1.9' },
};
const browser: BrowserInfo = {
  path: '/tmp/chromium',
  source: 'env',
  kind: 'headless-shell',
  version: '147.0.7727.0',
  supportsBeginFrame: true,
};
const ffmpeg = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', version: '5.1.9', encoders: {} } as unknown as FfmpegInfo;

function failure(fn: () => void): SeekframeError {
  try {
    fn();
  } catch (error) {
    return error as SeekframeError;
  }
  throw new Error('expected a failure');
}

describe('checkChunkRuntime', () => {
  it('passes with the plan binaries and beginFrame', () => {
    expect(() => checkChunkRuntime(plan, browser, ffmpeg)).not.toThrow();
  });

  it('fails without beginFrame, never retried (a chunk must not fall back to screenshots)', () => {
    const error = failure(() => checkChunkRuntime(plan, { ...browser, supportsBeginFrame: false }, ffmpeg));
    expect(error.code).toBe('beginframe-unsupported');
    expect(classifyFailure(error).kind).toBe('fatal');
  });

  it('names both binaries that differ from the plan, never retried', () => {
    const error = failure(() => checkChunkRuntime(plan, { ...browser, version: '146.0.1' }, { ...ffmpeg, version: '4.1' }));
    expect(error.code).toBe('version-mismatch');
    expect(error.message).toContain('Chromium 146.0.1 (plan: 147.0.7727.0)');
    expect(error.message).toContain('ffmpeg 4.1 (plan: 5.1.9)');
    expect(classifyFailure(error).kind).toBe('fatal');
  });

  it('fails when the font packages differ from the plan (text would shape differently at the seams)', () => {
    const planned = { ...plan, versions: { ...plan.versions, fonts: { 'fonts-noto-core': '20201225-1' } } };
    expect(() => checkChunkRuntime(planned, browser, ffmpeg, { 'fonts-noto-core': '20201225-1' })).not.toThrow();
    const error = failure(() => checkChunkRuntime(planned, browser, ffmpeg, { 'fonts-noto-core': '20240101-1' }));
    expect(error.code).toBe('version-mismatch');
    expect(error.message).toContain('fonts {"fonts-noto-core":"20240101-1"} (plan: {"fonts-noto-core":"20201225-1"})');
  });
});
