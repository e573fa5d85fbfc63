import {
  createFrameEncoder,
  DEFAULT_JPEG_QUALITY,
  renderFramePool,
  type BrowserInfo,
  type BrowserSource,
  type CanvasPixels,
  type CaptureMode,
  type CapturePage,
  type CapturePageOptions,
  type EncodeResult,
  type EncoderOptions,
  type PoolWorker,
  type RenderTuning,
  type WorkerLaunch,
} from '@seekframe/engine';
import { BlankFrameWatch } from './blank-render.js';
import { frameTime } from '../plan/frame-timing.js';
import { pageScriptError, remoteRequestError } from './page-script-error.js';
import type { VideoFrameMap } from './open-media-page.js';
import type { ProjectServer } from '../serve/project-server.js';
import type { PageProblem } from '@seekframe/engine';
import type { Fps } from '../plan/render-options.js';

export interface PageTarget {
  url: string;
  width: number;
  height: number;
  /** --scale: device scale factor of the capture (default 1). */
  scale?: number;
  mode: CaptureMode;
  /** canvas mode: raw BGRA or I420 pixels (canvasPixelsFor); the encoder reads the same. */
  canvasPixels?: CanvasPixels;
  readyTimeoutMs: number;
  seekTimeoutMs?: number;
}

export interface CaptureAndEncodeOptions {
  browser: BrowserInfo;
  page: PageTarget;
  server: ProjectServer;
  workers: number;
  /** Frames [start, end) of the composition; the encoder receives them in order. */
  range: { start: number; end: number };
  /** Only these composition frames of the range, in this order (stills); default every frame of it. */
  frames?: readonly number[];
  fps: Fps;
  /** Speed settings (the render context's tuning). */
  tuning: RenderTuning;
  transparent: boolean;
  gpu: boolean;
  videoFrames: VideoFrameMap;
  encoder: Omit<EncoderOptions, 'inputFormat'>;
  signal: AbortSignal | undefined;
  /** Workers opened early: the media stage's page first, then those started meanwhile (the pool closes them). */
  adoptWorkers?: ReadonlyArray<PoolWorker | WorkerLaunch>;
  /** The render context's warm browser pool: workers lease browsers from it instead of launching. */
  browserPool?: BrowserSource | undefined;
  onProgress(framesRendered: number, elapsedMs: number): void;
  /** Every frame was one flat colour (`#rrggbb` or `transparent`): called before the output is published; throw to fail the render. */
  onBlank?(colour: string): void;
  beforeFinish(): void;
  /** Sees every captured frame in order (index in the range), before ffmpeg does; must be cheap. */
  observeFrame?(index: number, frame: Buffer): void;
  /** Checks the encoded output (file or png-sequence folder) once ffmpeg finished and before it is published; throw to fail the render. */
  verifyOutput?(encodedPath: string): Promise<void>;
  /** What the capture measured (per-frame cost, time waiting for ffmpeg), once every frame was delivered. */
  onCaptured?(stats: CaptureStats): void;
}

/** Frames per worker batch when frames are raw pixels (canvas capture). */
const RAW_BATCH_FRAMES = 6;

export interface CaptureStats {
  frameMs: Float64Array;
  /** CPU milliseconds per frame of the capturing browser, where it can be read (FramePoolResult.frameCpuMs). */
  frameCpuMs: Float64Array | undefined;
  reusedFrames: number;
  encoderWaitMs: number;
}

/**
 * Captures every frame with the engine's worker pool and streams them, in order, into one
 * encoder. A page script error or a problem recorded by the project server (missing file, failed
 * remote asset) stops the pool at the next frame; any failure aborts the encoder, which removes
 * its temp output.
 */
export async function captureAndEncode(options: CaptureAndEncodeOptions): Promise<EncodeResult> {
  const tuning = options.tuning;
  const wanted = options.frames ?? Array.from({ length: options.range.end - options.range.start }, (_, i) => options.range.start + i);
  const totalFrames = Math.min(wanted.length, tuning.maxFrames ?? Infinity);
  const capture = captureOptions(options.page, options.transparent, tuning);
  // Canvas capture hands over raw BGRA pixels; the other modes JPEG or PNG images.
  const raw = capture.mode === 'canvas';
  const encoder = createFrameEncoder({
    ...options.encoder,
    inputFormat: raw ? (capture.canvasPixels ?? 'bgra') : capture.imageFormat,
    ...(tuning.encoderThreads ? { threads: tuning.encoderThreads } : {}),
  });
  const startedAt = Date.now();
  const pages = new Set<CapturePage>();
  // ffmpeg dying stops the capture at once (its error is the pool's abort reason), not at the next frame.
  const encoderDied = new AbortController();
  void encoder.died.then((error) => encoderDied.abort(error));
  const signal = options.signal ? AbortSignal.any([options.signal, encoderDied.signal]) : encoderDied.signal;
  const blank = options.onBlank ? new BlankFrameWatch(raw ? (capture.canvasPixels ?? 'bgra') : 'image') : undefined;
  let encoderWaitMs = 0;

  // Author-script errors from the runtime's log fail the frame inside the engine (read in the same
  // round trip as each seek). Here: what only Node sees — the project server's problems (missing
  // file, failed remote asset) and the browser's console/network errors.
  const check = (): void => {
    options.server.problemLog.assertNone();
    const problems: PageProblem[] = [];
    for (const page of pages) problems.push(...page.problems());
    const failure = pageScriptError(problems, options.page.url) ?? remoteRequestError(problems, options.server.origin);
    if (failure) throw failure;
  };

  try {
    const { mode, ...page } = capture;
    const result = await renderFramePool({
      browser: options.browser,
      workers: options.workers,
      mode,
      gpu: options.gpu,
      page,
      times: wanted.slice(0, totalFrames).map((frame) => frameTime(frame, options.fps)),
      signal,
      ...(tuning.pinWorkers === undefined ? {} : { pinWorkers: tuning.pinWorkers }),
      // Raw frames are 8 MB at 1080p (a JPEG ~0.1-0.3 MB): short batches keep the frames waiting
      // for their turn to a few dozen MB instead of hundreds.
      ...(raw ? { batchSize: RAW_BATCH_FRAMES } : {}),
      ...(options.adoptWorkers ? { adoptWorkers: options.adoptWorkers } : {}),
      ...(options.browserPool ? { browserPool: options.browserPool } : {}),
      preparePage: async (workerPage) => {
        pages.add(workerPage);
        if (Object.keys(options.videoFrames).length > 0) {
          await workerPage.evaluate(
            (map) => (window as unknown as { __seekframe: { useVideoFrames(m: unknown): Promise<void> } }).__seekframe.useVideoFrames(map),
            options.videoFrames,
          );
        }
        check();
      },
      onFrame: async (index, frame, release) => {
        check();
        blank?.observe(frame);
        options.observeFrame?.(index, frame);
        const handing = performance.now();
        await encoder.write(frame, release);
        encoderWaitMs += performance.now() - handing;
        // ffmpeg flushes its last frames (x264's lookahead: up to ~0.4 s at `high`) while the pool
        // closes the browsers and we check for late errors; the output is published only after.
        if (index === totalFrames - 1) encoder.drain().catch(() => undefined);
      },
      onProgress: ({ framesDone }) => options.onProgress(framesDone, Date.now() - startedAt),
    });
    const failure =
      pageScriptError(result.pageProblems, options.page.url) ?? remoteRequestError(result.pageProblems, options.server.origin);
    if (failure) throw failure;
    options.server.problemLog.assertNone();
    options.onCaptured?.({ frameMs: result.frameMs, frameCpuMs: result.frameCpuMs, reusedFrames: result.reusedFrames, encoderWaitMs });
    const colour = blank?.flatColour();
    if (colour !== undefined) options.onBlank?.(colour);
    options.beforeFinish();
    if (options.verifyOutput) {
      await encoder.drain();
      await options.verifyOutput(encoder.encodedPath);
    }
    return await encoder.finish();
  } catch (error) {
    await encoder.abort();
    throw error;
  }
}

/**
 * How every capture page of a render is opened: JPEG frames for opaque output, PNG with a
 * transparent page background for alpha formats, plus the speed settings of the context's
 * tuning. The plan step opens its page with exactly these options, so the pool can adopt it.
 */
export function captureOptions(page: PageTarget, transparent: boolean, tuning: RenderTuning): CapturePageOptions {
  return {
    ...page,
    imageFormat: transparent ? 'png' : (tuning.frameFormat ?? 'jpeg'),
    transparent,
    jpegQuality: tuning.jpegQuality ?? DEFAULT_JPEG_QUALITY,
    ...(tuning.skipUnchangedFrames === undefined ? {} : { skipUnchangedFrames: tuning.skipUnchangedFrames }),
  };
}
