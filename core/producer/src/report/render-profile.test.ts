import { describe, expect, it } from 'vitest';
import { RenderProfile } from './render-profile.js';
import { buildRenderReport, RenderReportSchema } from './render-report.js';

/** Busy-waits: the clock under test is performance.now(), and a sleep would only add slack. */
function spend(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('RenderProfile', () => {
  it('splits wall time into stages that add up to the whole, in pipeline order, repeats summed', () => {
    const profile = new RenderProfile();
    profile.stageEvent('lint');
    spend(2);
    profile.stageEvent('load');
    profile.stageEvent('variables');
    profile.enter('media');
    spend(2);
    profile.enter('audio');
    profile.enter('media');
    spend(2);
    profile.stageEvent('capture');
    spend(3);
    profile.stageEvent('finish');
    profile.stop();
    const stages = profile.stages();
    expect(stages.map((s) => s.stage)).toEqual(['lint', 'load', 'media', 'audio', 'capture', 'encode']);
    const sum = stages.reduce((total, s) => total + s.ms, 0);
    expect(sum).toBeCloseTo(profile.elapsedMs(), 6);
    expect(stages.find((s) => s.stage === 'media')!.ms).toBeGreaterThanOrEqual(4);
  });

  it('stops once: a stage entered after stop changes nothing', () => {
    const profile = new RenderProfile();
    profile.enter('capture');
    profile.stop();
    const before = profile.elapsedMs();
    profile.enter('encode');
    expect(profile.stages().map((s) => s.stage)).toEqual(['capture']);
    expect(profile.elapsedMs()).toBe(before);
  });

  it('builds a report that its published schema accepts, with null capture facts when nothing was captured', () => {
    const profile = new RenderProfile();
    profile.stageEvent('lint');
    const report = buildRenderReport(profile, { status: 'failed' });
    expect(RenderReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      version: 1,
      status: 'failed',
      frames: null,
      slowestFrames: [],
      hotspots: [],
      workers: null,
      captureMode: null,
    });
  });
});
