import { describe, expect, it } from 'vitest';
import { benchmarkVariants, combineBest, referenceSettings } from './benchmark-variants.js';
import { formatBenchmarkTable } from './format-benchmark-table.js';
import { fasterMatching, pickRecommendation, type BenchmarkRow } from './pick-recommendation.js';

const row = (label: string, fps: number, matches: boolean, settings = referenceSettings('beginframe')): BenchmarkRow => ({
  label,
  settings,
  frames: 10,
  wallSeconds: 10 / fps,
  fps,
  captureCpuPerFrame: 0.1,
  encodeCpuPerFrame: 0.1,
  nodeCpuPerFrame: 0.01,
  idleFraction: 0.1,
  othersFraction: 0,
  peakMemoryMB: 500,
  browserMemoryMB: 200,
  outputBytes: 1000,
  psnr: matches ? 50 : 30,
  matches,
});

describe('benchmark variants', () => {
  it('changes one setting at a time from the render defaults', () => {
    const variants = benchmarkVariants({ cores: 2, captureModes: ['beginframe', 'screenshot'] });
    expect(variants.map((v) => v.label)).toEqual([
      'reference',
      'capture screenshot',
      'workers 2',
      'workers 2 unpinned',
      'frames png',
      'jpeg 80',
      'jpeg 70',
      'x264 threads 2',
    ]);
    expect(variants[0]!.settings).toEqual({
      captureMode: 'beginframe',
      workers: 1,
      pinWorkers: true,
      frameFormat: 'jpeg',
      jpegQuality: 90,
      encoderThreads: 0,
    });
    expect(variants.find((v) => v.label === 'workers 2 unpinned')!.settings).toEqual({
      ...variants[0]!.settings,
      workers: 2,
      pinWorkers: false,
    });
    expect(variants.find((v) => v.label === 'frames png')!.settings).toEqual({ ...variants[0]!.settings, frameFormat: 'png' });
    expect(benchmarkVariants({ cores: 8, captureModes: ['screenshot'] }).map((v) => v.label)).toEqual([
      'reference',
      'workers 2',
      'workers 3',
      'workers 4',
      'workers 4 unpinned',
      'frames png',
      'jpeg 80',
      'jpeg 70',
      'x264 threads 8',
    ]);
  });
  it('from canvas capture (raw pixels, no JPEG) tries the other modes and leaves out the JPEG settings', () => {
    const variants = benchmarkVariants({ cores: 2, captureModes: ['canvas', 'beginframe', 'screenshot'] });
    expect(variants.map((v) => v.label)).toEqual([
      'reference',
      'capture beginframe',
      'capture screenshot',
      'workers 2',
      'workers 2 unpinned',
      'x264 threads 2',
    ]);
    expect(variants[0]!.settings.captureMode).toBe('canvas');
  });
  it('combines the winning values of several one-setting variants', () => {
    const ref = referenceSettings('beginframe');
    expect(
      combineBest(ref, [
        { ...ref, workers: 2 },
        { ...ref, jpegQuality: 80 },
      ]),
    ).toEqual({ ...ref, workers: 2, jpegQuality: 80 });
  });
});

describe('pickRecommendation', () => {
  it('takes the fastest row whose output matches the reference', () => {
    const rows = [row('reference', 5, true), row('jpeg 70', 9, false), row('workers 2', 6, true)];
    expect(pickRecommendation(rows)?.label).toBe('workers 2');
    expect(fasterMatching(rows).map((r) => r.label)).toEqual(['workers 2']);
  });
  it('keeps the reference when nothing matching is faster', () => {
    expect(pickRecommendation([row('reference', 5, true), row('workers 2', 4, true)])?.label).toBe('reference');
  });
});

describe('formatBenchmarkTable', () => {
  it('prints one row per setting with CPU per frame, idle and PSNR', () => {
    const lines = formatBenchmarkTable([{ ...row('reference', 5, true), psnr: Infinity }, row('jpeg 70', 9, false)]);
    expect(lines[0]).toBe(
      '| settings | fps | capture CPU s/frame | encode CPU s/frame | idle | others | peak MB | output KB | PSNR dB | match |',
    );
    expect(lines[2]).toBe('| reference | 5.00 | 0.100 | 0.100 | 10% | 0% | 500 | 1 | identical | yes |');
    expect(lines[3]).toBe('| jpeg 70 | 9.00 | 0.100 | 0.100 | 10% | 0% | 500 | 1 | 30.0 | no |');
  });
});
