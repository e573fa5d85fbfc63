import type { RenderLimits } from '../plan/render-limits.js';
import { findBrowser, findFfmpeg, scopedRenderTuning, type BrowserInfo, type BrowserSource, type RenderTuning } from '@seekframe/engine';
import { loadRuntimeSource } from '../serve/load-runtime-source.js';
import type { ProblemLog } from '../serve/problem-log.js';
import type { RenderEvent, RenderEventListener } from './render-events.js';
import type { RenderProfile } from '../report/render-profile.js';

/**
 * Everything a render needs that is not data: where the browser and ffmpeg are, the runtime
 * bundle, speed tuning, the network policy, a work folder, the abort signal, the event sink and
 * the problem log. Every member has a default, so a host injects only what differs (a Lambda
 * passes its own Chromium and a bundled ffmpeg; the CLI passes the saved benchmark's tuning).
 */
export interface RenderContext {
  signal?: AbortSignal;
  /** The existing RenderEvent objects (stage, progress, warning). */
  onEvent?: RenderEventListener;
  /** Default: findBrowser(). */
  browser?: BrowserInfo | (() => Promise<BrowserInfo>);
  /**
   * A warm browser pool (createBrowserPool): the render leases running browsers, each page in a
   * fresh isolated context, instead of launching its own. Default: none (one launch per worker).
   * Batches make one per batch; the producer server keeps one; a warm Lambda can keep one too.
   * Whatever gives them, every browser of a render is watched by its memory bound (render-guards.ts).
   */
  browsers?: BrowserSource;
  /** Default: findFfmpeg() (SEEKFRAME_FFMPEG/SEEKFRAME_FFPROBE, else PATH). */
  ffmpeg?: { ffmpeg: string; ffprobe: string };
  /** The @seekframe/runtime browser bundle's text. Default: the installed bundle. */
  runtimeSource?: string | (() => Promise<string>);
  /**
   * Speed-only settings (workers, frame transport, encoder threads). Default: none; not read
   * from the home folder here: the CLI reads the saved benchmark once and passes it.
   */
  tuning?: RenderTuning;
  /** `sandboxed` (servers, Lambda): the page reaches only its project server and public assets. Default: the spec's `network`. */
  network?: 'open' | 'sandboxed';
  /** A folder for downloads and extracted frames. Default: a temp folder, removed at the end. */
  workDir?: string;
  /** The per-render log of page and asset problems. Default: a fresh one per call. */
  problems?: ProblemLog;
  /**
   * Where the render's time goes (stages, per-frame cost, workers and capture mode chosen).
   * Default: renderComposition makes one for its report; a host passes its own to read it after a
   * failure too (`render --report`).
   */
  profile?: RenderProfile;
  /**
   * The host's own limits on top of the plan's (a fleet worker renders plans it did not make):
   * for each limit the stricter of the two applies. Default: the plan's alone.
   */
  limits?: RenderLimits;
}

/** A context with the project folder: renderFrames and mixPlanAudio read the project from it. */
export type ProjectRenderContext = RenderContext & { projectDir: string };

/** Calls the listener, never letting its bug break the render. */
export function eventSink(context: RenderContext): (event: RenderEvent) => void {
  return (event) => {
    try {
      context.onEvent?.(event);
    } catch {
      // A listener's bug must not break the render.
    }
  };
}

export async function contextBrowser(context: RenderContext): Promise<BrowserInfo> {
  const browser = context.browser;
  if (typeof browser === 'function') return browser();
  return browser ?? findBrowser();
}

export async function contextRuntimeSource(context: RenderContext): Promise<string> {
  const source = context.runtimeSource;
  if (typeof source === 'function') return source();
  return source ?? loadRuntimeSource();
}

let defaultFfmpeg: Promise<{ ffmpeg: string; ffprobe: string; version: string }> | undefined;

/** ffmpeg and ffprobe paths (and the version for the plan). */
export async function contextFfmpeg(context: RenderContext): Promise<{ ffmpeg: string; ffprobe: string; version: string }> {
  if (context.ffmpeg) {
    const given = context.ffmpeg;
    const info = await findFfmpeg({ env: { ...process.env, SEEKFRAME_FFMPEG: given.ffmpeg, SEEKFRAME_FFPROBE: given.ffprobe } }).catch(
      () => undefined,
    );
    return { ...given, version: info?.version ?? 'unknown' };
  }
  defaultFfmpeg ??= findFfmpeg().then((info) => ({ ffmpeg: info.ffmpeg, ffprobe: info.ffprobe, version: info.version }));
  defaultFfmpeg.catch(() => {
    defaultFfmpeg = undefined;
  });
  return defaultFfmpeg;
}

/**
 * The tuning in effect: the context's, else an enclosing withRenderTuning scope (the benchmark
 * and tests try settings that way), else none.
 */
export function contextTuning(context: RenderContext): RenderTuning {
  return context.tuning ?? scopedRenderTuning() ?? {};
}
