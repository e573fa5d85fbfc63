import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import type { BrowserInfo } from '../browser/browser-info.js';
import type { CaptureMode } from '../browser/browser-flags.js';
import type { CapturedFrame, CapturePage, CapturePageOptions } from '../capture/capture-page.js';
import { launchedWorker, startPoolWorker, type PoolWorker, type WorkerLaunch } from './open-pool-worker.js';
import { scheduleWorkerBatches } from './schedule-worker-batches.js';
import type { BrowserSource } from './browser-pool.js';
import { pageProblemKey, type PageProblem } from '../capture/page-problems.js';
import { pinProcessTree, reserveWorkerCpus } from '../system/pin-to-cpu.js';
import { createTreeCpu, type TreeCpu } from '../system/tree-cpu.js';

export type { PoolWorker } from './open-pool-worker.js';

export interface FramePoolOptions {
  browser: Pick<BrowserInfo, 'path' | 'kind'>;
  /** Browser processes to run (see autoWorkerCount); fewer start when there are fewer batches. */
  workers: number;
  mode: CaptureMode;
  gpu?: boolean;
  /** Everything openCapturePage needs except the mode. */
  page: Omit<CapturePageOptions, 'mode'>;
  /** Time in seconds of each frame; the index in this array is the frame index. */
  times: readonly number[];
  /**
   * Receives frames strictly in index order. Awaited: a slow consumer slows the workers.
   * `release` hands the frame's memory back for a later frame (canvas capture reuses it): call it
   * once nothing reads `frame` any more, or never (the frame is then garbage-collected).
   */
  onFrame(index: number, frame: Buffer, release: () => void): Promise<void> | void;
  /** Called after each delivered frame. */
  onProgress?(progress: { framesDone: number; totalFrames: number }): void;
  /** Runs once per worker page after it is ready, before its first frame (e.g. useVideoFrames). */
  preparePage?(page: CapturePage, worker: number): Promise<void>;
  signal?: AbortSignal;
  /** Crashed browsers replaced before the render fails (default 2 per render). */
  maxBrowserRestarts?: number;
  /** Frames per batch a worker takes at a time (default: ~4 batches per worker, max 30). */
  batchSize?: number;
  /**
   * Pin each worker's browser to its own CPU when there are two or more workers (default true;
   * Linux, via taskset; silently skipped elsewhere). See pin-to-cpu.ts for why and what it gains.
   */
  pinWorkers?: boolean;
  /** Captured frames waiting for delivery, at most (default: enough to keep every worker busy). */
  maxBufferedFrames?: number;
  /**
   * Workers opened before the pool started (same browser, mode and page options), used as
   * workers 0, 1, ... instead of launching browsers: the producer opens one to read media clips
   * and starts the others meanwhile (startPoolWorker), so no browser start delays the capture.
   * They may still be opening. The pool owns them: every one is closed in every case, used or not.
   */
  adoptWorkers?: ReadonlyArray<PoolWorker | WorkerLaunch>;
  /** A warm browser pool: workers (and replacements of crashed ones) lease browsers from it instead of launching. */
  browserPool?: BrowserSource | undefined;
}

export interface FramePoolResult {
  frames: number;
  /** Frames where Chromium drew nothing new and the previous image was reused (beginframe). */
  reusedFrames: number;
  workers: number;
  /** Browsers that crashed and were replaced. */
  browserRestarts: number;
  /** Most frames ever held between capture and delivery (bounded by maxBufferedFrames). */
  peakBufferedFrames: number;
  /** Page problems seen by any worker (console errors, failed requests...), de-duplicated; the caller decides which fail the render. */
  pageProblems: PageProblem[];
  /**
   * Milliseconds each frame took in its worker, seek to encoded image (index = frame index):
   * what the render report's slowest frames and slow clips are made of. Waiting for the
   * encoder or for delivery is not included.
   */
  frameMs: Float64Array;
  /**
   * CPU milliseconds each frame cost its worker's browser (all its processes, seek to image):
   * what a frame costs, whatever else runs on the machine, for the render report's slow clips.
   * Undefined where it cannot be read (not Linux, or a browser that gave no reading).
   */
  frameCpuMs: Float64Array | undefined;
}

/**
 * Renders `times` with N separate browser processes. Workers take contiguous batches in order and
 * never run more than `maxBufferedFrames` ahead of delivery, so memory stays bounded while the
 * consumer (the encoder) gets every frame in order. A browser that crashes is replaced (up to
 * maxBrowserRestarts); any other failure, or an abort, closes every browser.
 */
export async function renderFramePool(opts: FramePoolOptions): Promise<FramePoolResult> {
  const total = opts.times.length;
  // Every browser this pool owns, adopted or launched: cancelled on failure, closed at the end.
  const launches: WorkerLaunch[] = (opts.adoptWorkers ?? []).map((w) => ('ready' in w ? w : launchedWorker(w)));
  const adopted: Array<WorkerLaunch | undefined> = [...launches];
  const closeAll = (): Promise<unknown> => Promise.allSettled(launches.map((launch) => launch.cancel()));
  if (!Number.isInteger(opts.workers) || opts.workers < 1) {
    await closeAll();
    throw new SeekframeError('invalid-options', `workers must be a whole number of at least 1, got ${opts.workers}.`, { stage: 'config' });
  }
  const batches = scheduleWorkerBatches(total, opts.workers, opts.batchSize);
  const workerCount = Math.min(opts.workers, batches.length);
  const batchLength = batches[0] ? batches[0].end - batches[0].start : 1;
  const window = Math.max(1, opts.maxBufferedFrames ?? (workerCount + 1) * batchLength);
  // One browser alone uses more than one core (its processes overlap), so it is never pinned.
  const cpuOf = (opts.pinWorkers ?? true) && workerCount >= 2 ? reserveWorkerCpus(workerCount) : undefined;

  const buffered = new Map<number, CapturedFrame>();
  const pageProblems = new Map<string, PageProblem>();
  const keep = (page: CapturePage): void => {
    for (const problem of page.problems()) pageProblems.set(pageProblemKey(problem), problem);
  };
  let waiters: Array<() => void> = [];
  let failure: SeekframeError | undefined;
  let nextBatch = 0;
  let nextToDeliver = 0;
  let delivering = false;
  let reusedFrames = 0;
  let peakBufferedFrames = 0;
  let restarts = 0;
  const frameMs = new Float64Array(total);
  const frameCpuMs = new Float64Array(total);
  let cpuReadable = true;
  const maxRestarts = opts.maxBrowserRestarts ?? 2;

  const wake = (): void => {
    const current = waiters;
    waiters = [];
    for (const resolve of current) resolve();
  };
  const waitUntil = async (ready: () => boolean): Promise<void> => {
    while (!ready()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const fail = (error: unknown): void => {
    if (failure) return;
    failure = toSeekframeError(error, { code: 'capture-failed', stage: 'capture' });
    // Closing the browsers makes every in-flight capture (and page still loading) reject at once.
    void closeAll();
    wake();
  };
  const onAbort = (): void => {
    const reason: unknown = opts.signal?.reason;
    fail(
      reason instanceof SeekframeError ? reason : new SeekframeError('render-cancelled', 'The render was cancelled.', { stage: 'capture' }),
    );
  };
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const deliver = async (): Promise<void> => {
    if (delivering) return;
    delivering = true;
    try {
      while (!failure && buffered.has(nextToDeliver)) {
        const frame = buffered.get(nextToDeliver)!;
        buffered.delete(nextToDeliver);
        await opts.onFrame(nextToDeliver, frame.data, frame.release ?? noRelease);
        nextToDeliver++;
        opts.onProgress?.({ framesDone: nextToDeliver, totalFrames: total });
        wake();
      }
    } catch (error) {
      fail(error);
    } finally {
      delivering = false;
      wake();
    }
  };

  const openWorker = async (id: number): Promise<PoolWorker | undefined> => {
    let launch = adopted[id];
    adopted[id] = undefined; // used once: a crashed worker gets a new browser
    if (!launch) {
      if (failure) return undefined;
      launch = startPoolWorker({
        browser: opts.browser,
        mode: opts.mode,
        gpu: opts.gpu ?? false,
        page: { ...opts.page, ...(opts.signal ? { signal: opts.signal } : {}) },
        ...(opts.browserPool ? { pool: opts.browserPool } : {}),
      });
      launches.push(launch);
    }
    const ready = await launch.ready;
    if (failure) return void (await launch.cancel());
    const pid = ready.session.browser.process()?.pid;
    if (cpuOf && pid !== undefined) await pinProcessTree(pid, cpuOf(id));
    await opts.preparePage?.(ready.page, id);
    return ready;
  };

  const worker = async (id: number): Promise<void> => {
    let current = await openWorker(id);
    if (!current) return;
    const cpuOfBrowser = (worker: PoolWorker): TreeCpu | undefined => {
      const pid = worker.session.browser.process()?.pid;
      return pid === undefined ? undefined : createTreeCpu(pid);
    };
    let cpu = cpuOfBrowser(current);
    try {
      while (!failure && nextBatch < batches.length) {
        const batch = batches[nextBatch++]!;
        let index = batch.start;
        while (index < batch.end) {
          await waitUntil(() => failure !== undefined || index < nextToDeliver + window);
          if (failure) return;
          let frame;
          const began = performance.now();
          const cpuBefore = cpu?.read();
          try {
            frame = await current.page.seekAndCaptureFrame(opts.times[index]!, index);
          } catch (error) {
            // A browser that died (usually out of memory) is replaced once or twice per render;
            // the frame it was on is captured again by the new one.
            if (failure || !(error instanceof SeekframeError) || error.code !== 'browser-crashed' || restarts >= maxRestarts) throw error;
            restarts++;
            keep(current.page);
            await current.close();
            cpu?.close();
            current = await openWorker(id);
            if (!current) return;
            cpu = cpuOfBrowser(current);
            continue;
          }
          frameMs[index] = performance.now() - began;
          const cpuAfter = cpu?.read();
          if (cpuBefore === undefined || cpuAfter === undefined) cpuReadable = false;
          else frameCpuMs[index] = (cpuAfter - cpuBefore) * 1000;
          if (frame.reused) reusedFrames++;
          buffered.set(index, frame);
          peakBufferedFrames = Math.max(peakBufferedFrames, buffered.size);
          index++;
          void deliver();
        }
      }
    } finally {
      cpu?.close();
      if (current) keep(current.page);
    }
  };

  try {
    await Promise.all(Array.from({ length: workerCount }, (_, id) => worker(id).catch(fail)));
    await waitUntil(() => failure !== undefined || (nextToDeliver === total && !delivering));
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await closeAll();
  }
  if (failure) throw failure;
  return {
    frames: total,
    reusedFrames,
    workers: workerCount,
    browserRestarts: restarts,
    peakBufferedFrames,
    pageProblems: [...pageProblems.values()],
    frameMs,
    frameCpuMs: cpuReadable ? frameCpuMs : undefined,
  };
}

function noRelease(): void {}
