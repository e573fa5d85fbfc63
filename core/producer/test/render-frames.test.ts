import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition, type RenderEvent } from '../src/index.js';
import { frameIndexProject, readFrameIndex } from './helpers/fixtures.js';
import { decodeFrames, probe } from './helpers/media-tools.js';
import { tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  project = await tempProject(frameIndexProject({ duration: 1.2, fps: 10 }));
});
afterAll(async () => project?.cleanup());

describe('frame exactness', () => {
  it('writes frame i at t = i / fps, every frame in order across two workers', async () => {
    const output = path.join(project.dir, 'out', 'frames.mp4');
    const events: RenderEvent[] = [];
    const result = await renderComposition({ projectDir: project.dir, output, workers: 2 }, (e) => events.push(e));
    expect(result).toMatchObject({ output, frames: 12, fps: { num: 10, den: 1 }, workers: 2, width: 160, height: 90 });
    expect(['canvas', 'beginframe', 'screenshot']).toContain(result.captureMode);
    const frames = await decodeFrames(output, 160, 90);
    expect(frames.map((f) => readFrameIndex(f))).toEqual(Array.from({ length: 12 }, (_, i) => i));

    const stages = events.filter((e) => e.type === 'stage').map((e) => (e as { stage: string }).stage);
    expect(stages).toEqual(['lint', 'load', 'variables', 'serve', 'media', 'capture', 'finish']);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.at(-1)).toMatchObject({ framesRendered: 12, totalFrames: 12, percent: 100 });
    const complete = events.at(-1);
    expect(complete).toMatchObject({ type: 'complete', output, size: (await stat(output)).size });
    expect((complete as { videoDuration: number }).videoDuration).toBeCloseTo(1.2, 6);
    // Nothing beside the output: the temp file was renamed.
    expect(await readdir(path.dirname(output))).toEqual(['frames.mp4']);
  });

  it.each(['screenshot', 'beginframe', 'canvas'] as const)('is frame-exact in %s capture mode too', async (captureMode) => {
    const output = path.join(project.dir, 'out', `${captureMode}.mp4`);
    const result = await renderComposition({ projectDir: project.dir, output, captureMode, workers: 1 });
    expect(result.captureMode).toBe(captureMode);
    const frames = await decodeFrames(output, 160, 90);
    expect(frames.map((f) => readFrameIndex(f))).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('falls back to screenshot capture, and says why, when the browser has no beginFrame', async () => {
    const previous = process.env.SEEKFRAME_BROWSER;
    process.env.SEEKFRAME_BROWSER = '/usr/bin/chromium'; // full Chromium: no HeadlessExperimental.beginFrame
    try {
      const output = path.join(project.dir, 'out', 'fallback.mp4');
      const events: RenderEvent[] = [];
      const result = await renderComposition({ projectDir: project.dir, output, workers: 1 }, (e) => events.push(e));
      expect(result.captureMode).toBe('screenshot');
      const warning = events.find((e) => e.type === 'warning' && e.code === 'capture/screenshot-fallback');
      expect(warning).toBeDefined();
      expect((warning as { message: string }).message).toContain('chromium-headless-shell');
      const frames = await decodeFrames(output, 160, 90);
      expect(frames.map((f) => readFrameIndex(f))).toEqual(Array.from({ length: 12 }, (_, i) => i));
    } finally {
      if (previous === undefined) delete process.env.SEEKFRAME_BROWSER;
      else process.env.SEEKFRAME_BROWSER = previous;
    }
  });

  it('honours a rational --fps over data-fps', async () => {
    const output = path.join(project.dir, 'out', 'ntsc.mp4');
    const result = await renderComposition({ projectDir: project.dir, output, fps: '15000/1001', workers: 1 });
    expect(result.frames).toBe(Math.round((1.2 * 15000) / 1001));
    const info = await probe(output);
    expect(info.streams[0]?.r_frame_rate).toBe('15000/1001');
    const frames = await decodeFrames(output, 160, 90);
    // Frame i paints round(t * fps) with t = i * 1001 / 15000: the index itself.
    expect(frames.map((f) => readFrameIndex(f))).toEqual(Array.from({ length: result.frames }, (_, i) => i));
  });
});
