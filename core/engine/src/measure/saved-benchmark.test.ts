import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedRenderTuning, withRenderTuning } from './render-tuning.js';
import { savedRenderTuning, loadSavedBenchmark, saveBenchmark, savedBenchmarkPath, type SavedBenchmark } from './saved-benchmark.js';
import { autoWorkerCount } from '../pool/worker-count.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-saved-benchmark-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const saved = (cores: number): SavedBenchmark => ({
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  cores,
  browser: '/usr/bin/chromium-headless-shell',
  composition: '/p',
  recommendation: { captureMode: 'beginframe', workers: 2, jpegQuality: 80, encoderThreads: 2 },
});

describe('saved benchmark', () => {
  it('lives under SEEKFRAME_CACHE_DIR, else XDG_CACHE_HOME/seekframe, else ~/.cache/seekframe', () => {
    expect(savedBenchmarkPath({ SEEKFRAME_CACHE_DIR: '/c' })).toBe('/c/benchmark.json');
    expect(savedBenchmarkPath({ XDG_CACHE_HOME: '/x' })).toBe('/x/seekframe/benchmark.json');
    expect(savedBenchmarkPath({})).toBe(path.join(os.homedir(), '.cache', 'seekframe', 'benchmark.json'));
  });

  it('round-trips, and applies only on a machine with the same core count', async () => {
    const env = { SEEKFRAME_CACHE_DIR: path.join(dir, 'a') };
    const file = await saveBenchmark(saved(os.availableParallelism()), env);
    expect(file).toBe(path.join(dir, 'a', 'benchmark.json'));
    expect(loadSavedBenchmark(env)?.recommendation).toEqual(saved(1).recommendation);
    expect(savedRenderTuning(env)).toEqual({ workers: 2, jpegQuality: 80, encoderThreads: 2 });
    expect(loadSavedBenchmark(env, os.availableParallelism() + 1)).toBeUndefined();
  });

  it('ignores a missing or broken file instead of failing the render', async () => {
    expect(loadSavedBenchmark({ SEEKFRAME_CACHE_DIR: path.join(dir, 'none') })).toBeUndefined();
    await mkdir(path.join(dir, 'broken'));
    await writeFile(path.join(dir, 'broken', 'benchmark.json'), '{"version":1,');
    expect(savedRenderTuning({ SEEKFRAME_CACHE_DIR: path.join(dir, 'broken') })).toEqual({});
  });

  it('nothing reads the saved file behind the caller: autoWorkerCount on this machine ignores it unless given', async () => {
    const env = { SEEKFRAME_CACHE_DIR: path.join(dir, 'b') };
    const odd = { ...saved(os.availableParallelism()), recommendation: { ...saved(1).recommendation, workers: 1 } };
    const previous = process.env.SEEKFRAME_CACHE_DIR;
    process.env.SEEKFRAME_CACHE_DIR = env.SEEKFRAME_CACHE_DIR;
    try {
      await saveBenchmark(odd, env);
      const frames = 1000;
      expect(autoWorkerCount({ frameCount: frames, freeMemoryBytes: 64 * 2 ** 30 })).toBe(
        autoWorkerCount({ frameCount: frames, freeMemoryBytes: 64 * 2 ** 30, cores: os.availableParallelism() }),
      );
      expect(autoWorkerCount({ frameCount: frames, freeMemoryBytes: 64 * 2 ** 30, recommended: savedRenderTuning(env).workers })).toBe(1);
      expect(await withRenderTuning({ jpegQuality: 70 }, async () => scopedRenderTuning())).toEqual({ jpegQuality: 70 });
    } finally {
      if (previous === undefined) delete process.env.SEEKFRAME_CACHE_DIR;
      else process.env.SEEKFRAME_CACHE_DIR = previous;
    }
  });

  it('autoWorkerCount takes the recommended workers in place of cores - 2, within memory and frame limits', () => {
    expect(autoWorkerCount({ cores: 2, freeMemoryBytes: 8 * 2 ** 30, frameCount: 1000, recommended: 2 })).toBe(2);
    expect(autoWorkerCount({ cores: 2, freeMemoryBytes: 8 * 2 ** 30, frameCount: 20, recommended: 2 })).toBe(1);
    expect(autoWorkerCount({ cores: 8, freeMemoryBytes: 2 ** 30, frameCount: 1000, recommended: 4 })).toBe(2);
  });
});
