import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type CaptureMode, chooseCaptureMode, findBrowser, saveBenchmark, videoPsnr } from '@seekframe/engine';
import { measureRender } from '@seekframe/producer';
import type { Quality } from '@seekframe/composition';
import { benchmarkVariants, combineBest, type BenchmarkSettings } from './benchmark-variants.js';
import { fasterMatching, MATCH_PSNR_DB, pickRecommendation, type BenchmarkRow } from './pick-recommendation.js';

export interface BenchmarkOptions {
  projectDir: string;
  /** Frames rendered per setting (the first N of the composition). */
  frames: number;
  quality: Quality;
  save: boolean;
  env: NodeJS.ProcessEnv;
  /** One line per step, for a human watching. */
  onStep(line: string): void;
  signal?: AbortSignal;
}

export interface BenchmarkReport {
  composition: string;
  cores: number;
  browser: string;
  /** Why the reference captures the way it does (beginframe needs the headless shell). */
  captureNote: string;
  quality: string;
  frames: number;
  rows: BenchmarkRow[];
  recommendation: { label: string; settings: BenchmarkSettings; fps: number; speedup: number };
  /** Where the recommendation was saved; absent with --no-save. */
  savedTo?: string;
}

/**
 * Renders the first frames of a composition once per setting through the same code path as
 * `seekframe render` (renderComposition), measures CPU per process class, compares each output
 * with the reference render, and recommends (and saves) the fastest setting that matches.
 */
export async function runBenchmark(opts: BenchmarkOptions): Promise<BenchmarkReport> {
  const browser = await findBrowser({ env: opts.env });
  const cores = os.availableParallelism();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-benchmark-'));
  try {
    const rows: BenchmarkRow[] = [];
    let referenceOutput: string | undefined;
    const measure = async (label: string, settings: BenchmarkSettings): Promise<BenchmarkRow> => {
      opts.onStep(`rendering ${opts.frames} frames: ${label}`);
      const output = path.join(workDir, `${rows.length}.mp4`);
      const tuning = {
        maxFrames: opts.frames,
        pinWorkers: settings.pinWorkers,
        frameFormat: settings.frameFormat,
        jpegQuality: settings.jpegQuality,
        ...(settings.encoderThreads ? { encoderThreads: settings.encoderThreads } : {}),
      };
      const { result: _result, ...measured } = await measureRender(
        {
          projectDir: opts.projectDir,
          output,
          format: 'mp4',
          quality: opts.quality,
          workers: settings.workers,
          captureMode: settings.captureMode,
          ...(opts.signal ? { signal: opts.signal } : {}),
        },
        tuning,
      );
      const psnr = referenceOutput ? await videoPsnr(referenceOutput, output) : Infinity;
      referenceOutput ??= output;
      const row: BenchmarkRow = { label, settings, ...measured, psnr, matches: psnr >= MATCH_PSNR_DB };
      rows.push(row);
      return row;
    };

    const defaultMode = chooseCaptureMode('auto', browser).mode;
    const usable: CaptureMode[] = [
      ...(browser.supportsBeginFrame && browser.supportsCanvasCapture ? (['canvas'] as const) : []),
      ...(browser.supportsBeginFrame ? (['beginframe'] as const) : []),
      'screenshot',
    ];
    const captureModes = [defaultMode, ...usable.filter((mode) => mode !== defaultMode)];
    const variants = benchmarkVariants({ cores, captureModes });
    for (const variant of variants) await measure(variant.label, variant.settings);
    // Settings that each helped alone are tried together: the combination is what gets saved.
    const helpers = fasterMatching(rows);
    if (helpers.length > 1)
      await measure(
        'combined',
        combineBest(
          variants[0]!.settings,
          helpers.map((row) => row.settings),
        ),
      );

    const reference = rows[0]!;
    const best = pickRecommendation(rows) ?? reference;
    const report: BenchmarkReport = {
      composition: opts.projectDir,
      cores,
      browser: browser.path,
      captureNote: chooseCaptureMode('auto', browser).reason,
      quality: opts.quality,
      frames: reference.frames,
      rows,
      recommendation: { label: best.label, settings: best.settings, fps: best.fps, speedup: best.fps / reference.fps },
    };
    if (opts.save) {
      const { captureMode, workers, pinWorkers, frameFormat, jpegQuality, encoderThreads } = best.settings;
      report.savedTo = await saveBenchmark(
        {
          version: 1,
          createdAt: new Date().toISOString(),
          cores,
          browser: browser.path,
          composition: opts.projectDir,
          recommendation: { captureMode, workers, pinWorkers, frameFormat, jpegQuality, ...(encoderThreads ? { encoderThreads } : {}) },
        },
        opts.env,
      );
    }
    return report;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
