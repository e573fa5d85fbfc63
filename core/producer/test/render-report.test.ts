import { mkdir, readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition, RenderReportSchema, type RenderEvent } from '../src/index.js';
import { ffmpegDroppingAlpha } from './helpers/ffmpeg-dropping-alpha.js';
import { frameIndexProject } from './helpers/fixtures.js';
import { heavyClipProject } from './helpers/heavy-clip.js';
import { tempProject } from './helpers/temp-project.js';

let heavy: { dir: string; cleanup(): Promise<void> };
let alpha: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  heavy = await tempProject(heavyClipProject());
  alpha = await tempProject(frameIndexProject({ duration: 0.5, fps: 10 }));
});
afterAll(async () => {
  await heavy?.cleanup();
  await alpha?.cleanup();
});

describe('where the time went (render report)', () => {
  it('names the one expensive clip, in the report, the complete event and a slow-clip warning; stages add up to the wall time', async () => {
    const events: RenderEvent[] = [];
    const result = await renderComposition(
      { projectDir: heavy.dir, output: path.join(heavy.dir, 'out.mp4'), quality: 'draft', workers: 1 },
      (event) => events.push(event),
    );
    const report = result.report;
    expect(RenderReportSchema.parse(report)).toEqual(report);

    expect(report.hotspots[0]).toMatchObject({
      clip: '<div#heavy>',
      selector: '#heavy',
      firstFrame: 10,
      lastFrame: 17,
      start: 1,
      end: 1.8,
    });
    expect(report.hotspots[0]!.ratio).toBeGreaterThanOrEqual(2);
    // The slowest frames name the clips on screen in them: the heavy one exactly in its frames.
    expect(report.slowestFrames).toHaveLength(5);
    for (const frame of report.slowestFrames) expect(frame.clips).toEqual(frame.frame >= 10 && frame.frame <= 17 ? ['<div#heavy>'] : []);
    // A hotspot that cost a second or more of capture is also a warning, with the same facts.
    const warning = events.find((e) => e.type === 'warning' && e.code === 'slow-clip');
    if (report.hotspots[0]!.extraMs >= 1000) {
      expect(warning).toMatchObject({ type: 'warning', code: 'slow-clip', details: { selector: '#heavy' } });
      expect(warning?.type === 'warning' && warning.message).toMatch(
        /^<div#heavy> made the render slow: while it is on screen \(frames 10-17, 1\.00-1\.80 s\)/,
      );
    } else {
      expect(warning).toBeUndefined();
    }

    const complete = events.at(-1)!;
    expect(complete.type).toBe('complete');
    expect(complete.type === 'complete' && complete.report).toEqual(report);

    expect(report.stages.map((s) => s.stage)).toEqual(['lint', 'load', 'browser', 'page', 'media', 'audio', 'capture', 'encode']);
    const sum = report.stages.reduce((total, s) => total + s.ms, 0);
    expect(Math.abs(sum - report.durationMs)).toBeLessThan(1);
    // The report's clock runs inside the result's (made after it, stopped before it; Date.now() is
    // whole milliseconds) and covers the render, not a part of it: by order, not by a margin of
    // time a busy machine can exceed between two statements.
    expect(sum).toBeLessThanOrEqual(result.durationMs + 1);
    expect(sum).toBeGreaterThan(result.durationMs / 2);
    expect(report.frames).toMatchObject({ total: 20, captured: 20 });
    expect(report.workers).toEqual({ value: 1, requested: '1', reason: '1 requested with --workers' });
    expect(report.captureMode?.requested).toBe('auto');
    expect(report.captureMode?.reason).not.toContain('/');
  });

  it('explains workers: auto from cores and frame count', async () => {
    const result = await renderComposition({
      projectDir: alpha.dir,
      output: path.join(alpha.dir, 'auto.mp4'),
      quality: 'draft',
      workers: 'auto',
    });
    expect(result.report.workers?.requested).toBe('auto');
    expect(result.report.workers?.value).toBe(1);
    expect(result.report.workers?.reason).toMatch(/^auto: \d+ for \d+ CPU cores \(cores - 2, at least 2\)/);
    if (availableParallelism() >= 2) expect(result.report.workers?.reason).toContain('one per 30 frames allows 1 for 5 frames');
    expect(result.report.hotspots).toEqual([]);
  });
});

describe('decode-level alpha check of transparent renders', () => {
  it('a webm that keeps its alpha passes, and the check shows as the verify stage', async () => {
    const result = await renderComposition({
      projectDir: alpha.dir,
      output: path.join(alpha.dir, 'kept.webm'),
      format: 'webm',
      quality: 'draft',
      workers: 1,
    });
    expect(result.report.stages.map((s) => s.stage)).toContain('verify');
  });

  it('--scale: a scaled webm keeps its alpha, checked at the output size, and reports its stages; so does hls', async () => {
    const scaled = await renderComposition({
      projectDir: alpha.dir,
      output: path.join(alpha.dir, 'scaled.webm'),
      format: 'webm',
      scale: 2,
      quality: 'draft',
      workers: 1,
    });
    expect([scaled.width, scaled.height]).toEqual([320, 180]);
    expect(RenderReportSchema.parse(scaled.report)).toEqual(scaled.report);
    expect(scaled.report.stages.map((s) => s.stage)).toEqual([
      'lint',
      'load',
      'browser',
      'page',
      'media',
      'audio',
      'capture',
      'encode',
      'verify',
    ]);
    const events: RenderEvent[] = [];
    const hls = await renderComposition(
      { projectDir: alpha.dir, output: path.join(alpha.dir, 'stream'), format: 'hls', quality: 'draft', workers: 1 },
      (e) => events.push(e),
    );
    expect(hls.report.stages.map((s) => s.stage)).toEqual(['lint', 'load', 'browser', 'page', 'media', 'audio', 'capture', 'encode']);
    expect(hls.report.frames).toMatchObject({ total: 5, captured: 5 });
    const complete = events.at(-1);
    expect(complete?.type === 'complete' && complete.report).toEqual(hls.report);
  });

  for (const format of ['webm', 'mov'] as const) {
    it(`a ${format} whose encoder dropped the alpha fails with alpha-lost and leaves no file`, async () => {
      const out = path.join(alpha.dir, `lost-${format}`);
      await mkdir(out, { recursive: true });
      const ffmpeg = await ffmpegDroppingAlpha(alpha.dir);
      const events: RenderEvent[] = [];
      const rendering = renderComposition(
        { projectDir: alpha.dir, output: path.join(out, `out.${format}`), format, quality: 'draft', workers: 1 },
        undefined,
        { ffmpeg, onEvent: (e) => events.push(e) },
      );
      await expect(rendering).rejects.toMatchObject({ code: 'alpha-lost', stage: 'encode' });
      const error = events.at(-1);
      expect(error?.type === 'error' && error.error.message).toMatch(
        new RegExp(
          `^The ${format} output of index.html lost its alpha channel: frame \\d+ \\([\\d.]+ s\\) is 33% transparent in the page but 0% in the decoded ${format}`,
        ),
      );
      expect(await readdir(out)).toEqual([]);
    });
  }
});
