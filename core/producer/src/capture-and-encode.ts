import {
  createFrameEncoder,
  launchBrowser,
  openCapturePage,
  type BrowserInfo,
  type BrowserSession,
  type CaptureMode,
  type CapturePage,
  type CapturePageOptions,
  type EncodeResult,
  type EncoderOptions,
} from '@seekframe/engine';
import { frameTime } from './frame-timing.js';
import { pageScriptError } from './page-script-error.js';
import type { ProjectServer } from './project-server.js';
import type { Fps } from './render-options.js';
import type { VideoFrameMap } from './prepare-media.js';

export interface PageTarget {
  url: string;
  width: number;
  height: number;
  mode: CaptureMode;
  readyTimeoutMs: number;
}

export interface CaptureAndEncodeOptions {
  browser: BrowserInfo;
  page: PageTarget;
  server: ProjectServer;
  workers: number;
  totalFrames: number;
  fps: Fps;
  transparent: boolean;
  gpu: boolean;
  videoFrames: VideoFrameMap;
  encoder: Omit<EncoderOptions, 'inputFormat'>;
  /** A browser with the composition already open and ready (the media scan's), used as worker 0. */
  firstWorker?: { session: BrowserSession; page: CapturePage };
  signal: AbortSignal | undefined;
  onProgress(framesRendered: number, elapsedMs: number): void;
  beforeFinish(): void;
}

/** Frames captured ahead of the encoder before workers wait: bounds memory on slow encodes. */
const MAX_BUFFERED_FRAMES = 64;

/**
 * Captures every frame with N browser workers and streams them, in order, into one encoder.
 * Any failure (a worker, the encoder, a page script error, a missing asset, an abort) stops all
 * workers and aborts the encoder, which removes its temp output.
 */
export async function captureAndEncode(options: CaptureAndEncodeOptions): Promise<EncodeResult> {
  const encoder = createFrameEncoder({ ...options.encoder, inputFormat: captureOptions(options.page, options.transparent).imageFormat });
  const startedAt = Date.now();
  const sessions: Array<{ close(): Promise<void> }> = [];
  let failure: unknown;
  const fail = (error: unknown): void => {
    failure ??= error;
    wake();
  };
  let waiters: Array<() => void> = [];
  const wake = (): void => {
    const current = waiters;
    waiters = [];
    for (const resolve of current) resolve();
  };
  const waitForChange = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
  const onAbort = (): void => fail(options.signal?.reason ?? new Error('aborted'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const ready = new Map<number, Buffer>();
  let nextToWrite = 0;
  let nextToClaim = 0;

  const checkPage = async (page: CapturePage, withRuntimeErrors: boolean): Promise<void> => {
    const problem = options.server.problems()[0];
    if (problem) throw problem;
    const runtimeErrors = withRuntimeErrors ? await readRuntimeErrors(page) : [];
    const scriptError = pageScriptError([...page.errors(), ...runtimeErrors], options.page.url);
    if (scriptError) throw scriptError;
  };

  const openWorker = async (n: number): Promise<CapturePage | null> => {
    if (n === 0 && options.firstWorker) {
      sessions.push(options.firstWorker.session);
      return options.firstWorker.page;
    }
    const session = await launchBrowser({ browser: options.browser, mode: options.page.mode, gpu: options.gpu, width: options.page.width, height: options.page.height });
    sessions.push(session);
    if (failure) return null;
    return openCapturePage(session, captureOptions(options.page, options.transparent));
  };

  const worker = async (n: number): Promise<void> => {
    const page = await openWorker(n);
    if (!page) return;
    if (Object.keys(options.videoFrames).length > 0) {
      await page.evaluate((map) => (window as unknown as { __seekframe: { useVideoFrames(m: unknown): Promise<void> } }).__seekframe.useVideoFrames(map), options.videoFrames);
    }
    await checkPage(page, true);
    while (!failure && nextToClaim < options.totalFrames) {
      // Stay within a window ahead of the writer so a slow encoder does not fill memory.
      if (nextToClaim - nextToWrite >= MAX_BUFFERED_FRAMES) {
        await waitForChange();
        continue;
      }
      const index = nextToClaim++;
      const data = await page.seekAndCapture(frameTime(index, options.fps), index);
      await checkPage(page, false);
      ready.set(index, data);
      wake();
    }
    // Errors thrown inside timers or seek callbacks are caught by the runtime, not the browser.
    if (!failure) await checkPage(page, true);
  };

  const writer = async (): Promise<void> => {
    while (!failure && nextToWrite < options.totalFrames) {
      const data = ready.get(nextToWrite);
      if (!data) {
        await waitForChange();
        continue;
      }
      ready.delete(nextToWrite);
      await encoder.write(data);
      nextToWrite++;
      options.onProgress(nextToWrite, Date.now() - startedAt);
      wake();
    }
  };

  try {
    const running = [writer(), ...Array.from({ length: options.workers }, (_, n) => worker(n))].map((task) => task.catch(fail));
    await Promise.all(running);
    if (failure) throw failure;
    options.beforeFinish();
    return await encoder.finish();
  } catch (error) {
    await encoder.abort();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  }
}

/** JPEG frames for opaque output; PNG with a transparent page background for alpha formats. */
export function captureOptions(page: PageTarget, transparent: boolean): CapturePageOptions {
  return { ...page, imageFormat: transparent ? 'png' : 'jpeg', transparent };
}

/** Errors the runtime caught from author code (timers, seek callbacks, rejections). */
async function readRuntimeErrors(page: CapturePage): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __seekframe: { errors(): string[] } }).__seekframe.errors());
}
