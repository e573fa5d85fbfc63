import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  extractCompositionMetadata,
  frameSpanProblem,
  SeekframeError,
  spanFrames,
  toSeekframeError,
  type FrameSpan,
} from '@seekframe/composition';
import {
  canvasPixelsFor,
  chooseCaptureMode,
  describeCanvasBlockers,
  ffmpegHasFilter,
  findCanvasBlockers,
  fontPackageVersions,
  parseEncoderOptions,
  probeHdrMetadata,
  startPoolWorker,
  type CaptureMode,
  type CaptureModeDecision,
  type CapturePage,
  type WorkerLaunch,
} from '@seekframe/engine';
import type { InspectedClip } from '@seekframe/runtime';
import { reportPageWarnings, reportSilentProblem } from './blank-render.js';
import { alphaFlattenedProblem, showsBackdrop } from './transparent-backdrop.js';
import { captureOptions } from './capture-and-encode.js';
import { chooseDynamicRange } from './choose-dynamic-range.js';
import { CleanupStack } from './cleanup-stack.js';
import { openMediaPage, type HdrSource } from './open-media-page.js';
import { eventSink, type RenderContext } from './render-context.js';
import type { RenderStage } from './render-events.js';
import { chooseWorkers, openRenderSession, type RenderSession } from './render-session.js';
import { displayPath } from '../serve/display-path.js';
import { ProblemLog } from '../serve/problem-log.js';
import { abortError, rootCause } from './render-errors.js';
import { startRenderGuards } from './render-guards.js';
import { preflightHost } from '../serve/preflight-host.js';
import { resolveProject } from '../serve/resolve-project.js';
import { seekframeVersion } from './seekframe-version.js';
import { checkVariables } from '../plan/check-variables.js';
import { defaultFps, frameCount } from '../plan/frame-timing.js';
import { checkRenderLimits } from '../plan/render-limits.js';
import { planCaptionSidecar, type CaptionSidecar } from '../plan/caption-sidecar.js';
import { hlsSegmentFrames, outputSize } from '../plan/output-size.js';
import { sealPlan, type PlannedAudioTrack, type PlannedClip, type RenderPlan } from '../plan/render-plan.js';
import { parseRenderSpec, type RenderSpec, type RenderSpecInput } from '../plan/render-spec.js';
import { runLint } from '../plan/run-lint.js';
import { describeLength, emptyComposition, pageDuration } from './composition-length.js';

/** Math.random seed of every render: the same composition renders the same pixels every time. */
export const RENDER_SEED = 0x5eedf4a3;

/**
 * Resolves everything about a render once: project, metadata, fps, frame count, encoder
 * settings, capture mode, seed, the virtual clock's epoch (now, rounded to the second), and the
 * media clips (the page is loaded once to read them with live timing, and their sources probed).
 * Emits the lint, load, variables, serve and media stages and their warnings. The plan is plain
 * JSON: renderFrames gives the same pixels from it on any machine with the same versions.
 */
export async function planRender(spec: RenderSpec | RenderSpecInput, context: RenderContext = {}): Promise<RenderPlan> {
  const cleanup = new CleanupStack();
  // The server records here; a failure that is only the consequence of a missing file names the file.
  const problems = context.problems ?? new ProblemLog();
  let limited: AbortSignal | undefined;
  try {
    // The plan step loads the page too: the same memory bound (and wall time) holds for it.
    const guards = startRenderGuards(parseRenderSpec(spec).limits, context, cleanup);
    limited = guards.signal;
    const signal = context.signal ? AbortSignal.any([context.signal, limited]) : limited;
    const { plan } = await planRenderSession(spec, { ...guards.context, problems, signal }, cleanup, { keepPage: false, signal });
    return plan;
  } catch (caught) {
    throw abortError(context.signal, limited) ?? rootCause(toSeekframeError(caught, { code: 'render-failed' }), problems);
  } finally {
    await cleanup.run();
  }
}

export interface PlannedSession {
  plan: RenderPlan;
  /** `--captions`: the sidecar to write beside the output once the frames are encoded. */
  captions?: CaptionSidecar;
  /** Still open; with keepPage its `adopt` holds the plan step's page and the early workers. */
  session: RenderSession;
}

/**
 * planRender, keeping its live parts (server, browser, page, early workers) in `cleanup` for a
 * renderFrames that follows in this process: renderComposition uses it so the local render
 * starts no browser more than before the seams were cut.
 */
export async function planRenderSession(
  input: RenderSpec | RenderSpecInput,
  context: RenderContext,
  cleanup: CleanupStack,
  options: {
    keepPage: boolean;
    signal: AbortSignal | undefined;
    /** Stills: the frames that will really be captured (fewer than the plan's); the limits and the workers count these. */
    capturedFrames?: number;
  },
): Promise<PlannedSession> {
  const plannedAt = Date.now();
  const spec = parseRenderSpec(input);
  const emit = eventSink(context);
  const stage = (name: RenderStage): void => {
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
    emit({ type: 'stage', stage: name });
  };
  const warn = (code: string, message: string, details?: Record<string, unknown>): void =>
    emit({ type: 'warning', code, message, ...(details ? { details } : {}) });
  const project = await resolveProject(spec.projectDir);
  const network = context.network ?? spec.network;

  stage('lint');
  // A page from a request may name files outside its project (data-composition-src="../../x"); lint must not read them.
  const host = preflightHost(project.root, { confined: network === 'sandboxed' });
  for (const finding of await runLint(project.entryFile, undefined, host)) {
    // A note (where a length comes from) is not a warning: the plan says it in the report.
    if (finding.severity === 'info') continue;
    warn(`lint/${finding.rule}`, `${finding.file}:${finding.line}:${finding.column} ${finding.rule} ${finding.message}`, { ...finding });
  }

  stage('load');
  const metadata = extractCompositionMetadata(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
  const fps = spec.fps ?? defaultFps(metadata.fps);
  const source = displayPath(project.root, project.entryFile);
  // --scale: the encoded frames are the page's size times the scale; limits apply to that size.
  const size = outputSize(spec.format, metadata, spec.scale, source);
  // A length from the registered timeline is only known in the page: the frames are counted, and
  // what depends on them checked, once the media stage loaded it.
  const fromTimeline = metadata.durationSource === 'timeline' || metadata.durationSource === 'animations';
  let compositionSeconds = metadata.duration;
  let totalFrames = 0;
  const countFrames = (seconds: number): void => {
    compositionSeconds = seconds;
    const compositionFrames = frameCount(seconds, fps);
    if (compositionFrames < 1) throw emptyComposition(project.entryFile, metadata, seconds);
    // --frames: the output is that span; every count below (limits, workers, captions, chunks) is the output's.
    if (spec.frames) checkFrameSpan(spec.frames, compositionFrames, fps, source);
    totalFrames = spec.frames ? spanFrames(spec.frames) : compositionFrames;
    checkRenderLimits(
      spec.limits,
      {
        frames: Math.min(options.capturedFrames ?? totalFrames, totalFrames),
        width: size.width,
        height: size.height,
        workers: spec.workers,
        scale: spec.scale,
      },
      source,
    );
  };
  if (!fromTimeline) countFrames(metadata.duration);
  else
    checkRenderLimits(spec.limits, { frames: 1, width: size.width, height: size.height, workers: spec.workers, scale: spec.scale }, source);
  const encoder: RenderPlan['encoder'] = {
    quality: spec.quality,
    ...(spec.crf === undefined ? {} : { crf: spec.crf }),
    ...(spec.videoBitrate === undefined ? {} : { videoBitrate: spec.videoBitrate }),
    ...(spec.format === 'gif' ? { gifLoop: spec.gifLoop } : {}),
    ...(spec.format === 'hls' ? { hlsSegmentFrames: hlsSegmentFrames(spec.hlsSegmentSeconds, fps) } : {}),
    gpu: spec.gpu,
  };
  // Encoder rules (crf only for mp4/webm, even sizes for H.264...) fail now, not after capture.
  parseEncoderOptions({
    format: spec.format,
    output: spec.output ?? 'render',
    width: size.width,
    height: size.height,
    fps,
    inputFormat: 'png',
    ...withoutGpu(encoder),
  });

  stage('variables');
  for (const issue of checkVariables(metadata.variables, spec.variables, spec.strictVariables, project.entryFile)) {
    warn(`variables/${issue.kind}`, issue.message, { id: issue.id, kind: issue.kind });
  }
  const planCaptions = (): CaptionSidecar | undefined =>
    spec.captions === undefined
      ? undefined
      : planCaptionSidecar({
          file: spec.captions,
          variable: spec.captionsVariable,
          declarations: metadata.variables,
          variables: spec.variables ?? {},
          fps,
          totalFrames,
          firstFrame: spec.frames?.start ?? 0,
          source,
        });
  let captions = fromTimeline ? undefined : planCaptions();

  stage('serve');
  // The page's virtual Date.now() at t = 0, fixed here: every chunk of this plan shows the same clock.
  const epochMs = Math.floor(plannedAt / 1000) * 1000;
  const variables = spec.variables ?? {};
  const session = await openRenderSession(
    {
      root: project.root,
      entry: project.entry,
      variables,
      seed: RENDER_SEED,
      fps,
      epochMs,
      network,
      remoteTimeoutMs: spec.remoteTimeoutMs,
    },
    context,
    cleanup,
  );
  const transparent = isTransparent(spec.format);
  let decision = chooseCaptureMode(spec.captureMode, session.browser);
  if (decision.fellBack) warn('capture/screenshot-fallback', decision.reason);
  assertCaptureMode(decision.mode, session.browser);

  stage('media');
  // A length read from the page's timeline is known only once the page is loaded: no early workers then.
  const workers =
    options.keepPage && !fromTimeline
      ? chooseWorkers(spec.workers, Math.min(options.capturedFrames ?? totalFrames, totalFrames), session.tuning, spec.limits)
      : undefined;
  if (workers) session.workers = workers;
  const openPages = async (mode: CaptureMode): Promise<{ opened: Awaited<ReturnType<typeof openMediaPage>>; early: WorkerLaunch[] }> => {
    const page = {
      url: session.server.entryUrl,
      width: metadata.width,
      height: metadata.height,
      scale: spec.scale,
      mode,
      canvasPixels: canvasPixelsFor({
        yuv420: spec.format === 'mp4' || spec.format === 'hls',
        width: Math.round(metadata.width * (spec.scale ?? 1)),
        height: Math.round(metadata.height * (spec.scale ?? 1)),
      }),
      readyTimeoutMs: spec.readyTimeoutMs,
      seekTimeoutMs: spec.seekTimeoutMs,
    };
    const pageOptions = { ...captureOptions(page, transparent, session.tuning), ...(options.signal ? { signal: options.signal } : {}) };
    // Workers 1..N-1 start their browsers and load the page now, while the media stage runs in
    // the first one: on 2 cores a browser start is ~1 s in which capture would otherwise wait.
    const early = Array.from({ length: (workers?.value ?? 1) - 1 }, () =>
      startPoolWorker({ browser: session.browser, mode, gpu: spec.browserGpu, page: pageOptions, pool: session.browserPool }),
    );
    // Owned by the pool once capture starts; this covers a failure before that (cancel is idempotent).
    cleanup.add(() => Promise.all(early.map((launch) => launch.cancel())));
    const opened = await openMediaPage({ browser: session.browser, page: pageOptions, gpu: spec.browserGpu, pool: session.browserPool });
    // Closed by the pool once capture starts; this covers a failure before that (close is idempotent).
    cleanup.add(() => opened.worker.session.close());
    return { opened, early };
  };
  let { opened, early } = await openPages(decision.mode);
  if (decision.mode === 'canvas') {
    // What canvas capture would draw wrong is only known once the page has run its scripts.
    const blockers = await findCanvasBlockers(opened.worker.page);
    if (blockers.length > 0) {
      decision = canvasFallback(describeCanvasBlockers(blockers));
      warn(
        'canvas-capture-blocked',
        `Capturing with beginframe instead of canvas: this composition has ${describeCanvasBlockers(blockers)}.`,
        {
          blockers,
        },
      );
      await Promise.all([opened.worker.session.close(), ...early.map((launch) => launch.cancel())]);
      ({ opened, early } = await openPages(decision.mode));
    }
  }
  const captureMode: CaptureMode = decision.mode;
  // The report may reach a client: the browser is named by its file name, not its path on this machine.
  if (context.profile)
    context.profile.captureMode = {
      value: captureMode,
      requested: spec.captureMode,
      reason: session.browser.path
        ? decision.reason.split(session.browser.path).join(path.basename(session.browser.path))
        : decision.reason,
    };
  if (options.keepPage) session.adopt.push(opened.worker, ...early);
  if (fromTimeline) {
    countFrames(await pageDuration(opened.worker.page));
    captions = planCaptions();
  }
  if (context.profile) context.profile.length = describeLength(metadata, frameCount(compositionSeconds, fps) * (fps.den / fps.num));
  context.profile?.enter('media');
  if (context.profile) context.profile.clips = await readTimelineClips(opened.worker.page);
  // A missing media file is reported by the server with the document that used it.
  session.problems.assertNone();
  await reportPageWarnings(opened.worker.page, spec.strict, session.emit);
  // A transparent overlay rendered to a format without alpha: white text on white, unless told.
  if (!transparent && (await showsBackdrop(opened.worker.page)))
    reportSilentProblem(alphaFlattenedProblem(source, spec.format), spec.strict, session.emit);
  if (!options.keepPage) await opened.worker.session.close();

  const clips: PlannedClip[] = [];
  const hdrSources: HdrSource[] = [];
  for (const clip of opened.clips) {
    const planned: PlannedClip = {
      kind: clip.kind,
      src: session.plannedSrc(clip.src),
      start: clip.start,
      duration: clip.duration,
      mediaStart: clip.mediaStart,
      hasAudio: clip.hasAudio,
      volume: clip.volume,
    };
    if (clip.kind === 'video') {
      const input = await session.resolveMedia(planned.src, 'video');
      const probe = await session.probe(input);
      if (probe.hdr) {
        planned.hdr = probe.hdr;
        if (!hdrSources.some((s) => s.src === clip.src)) hdrSources.push({ src: clip.src, input, transfer: probe.hdr });
      }
    }
    clips.push(planned);
  }
  const tracks: PlannedAudioTrack[] = [];
  if (spec.format !== 'gif') {
    for (const clip of clips.filter((c) => c.hasAudio && c.duration > 0)) {
      const input = await session.resolveMedia(clip.src, clip.kind);
      if (!(await session.probe(input)).hasAudio) continue; // data-has-audio on a silent file: nothing to mix
      tracks.push({
        kind: clip.kind,
        src: clip.src,
        start: clip.start,
        duration: clip.duration,
        mediaStart: clip.mediaStart,
        volume: clip.volume,
      });
    }
  }
  // HDR or SDR output: --hdr/--sdr and the HDR clips just found.
  const range = await chooseDynamicRange({
    format: spec.format,
    hdr: spec.hdr,
    sdr: spec.sdr,
    sources: hdrSources,
    // Listing ffmpeg's filters starts a process (0.1 s, over 1.5 s on a busy host, the render
    // report showed): only asked when HDR is in play; without HDR clips or --hdr zscale is unused.
    zscale: (hdrSources.length > 0 || spec.hdr) && (await ffmpegHasFilter('zscale', session.ffmpeg.ffmpeg)),
    readMetadata: (input) => probeHdrMetadata(input, { ffprobe: session.ffmpeg.ffprobe }),
  });
  for (const warning of range.warnings) session.emit(warning);
  if (range.hdr) encoder.hdr = range.hdr;

  const plan = sealPlan({
    version: 1,
    entry: project.entry,
    width: metadata.width,
    height: metadata.height,
    // Only when scaled: a plan of an unscaled render hashes as it did before --scale existed.
    ...(spec.scale !== 1 ? { scale: spec.scale } : {}),
    fps,
    totalFrames,
    // Only when given: a plan of every frame hashes as it did before --frames existed.
    ...(spec.frames ? { frames: spec.frames } : {}),
    format: spec.format,
    encoder,
    captureMode,
    seed: RENDER_SEED,
    epochMs,
    variables,
    media: { clips, audio: tracks.length > 0 ? { tracks, codec: spec.format === 'webm' ? 'opus' : 'aac' } : null },
    versions: {
      seekframe: await seekframeVersion(),
      chromium: session.browser.version,
      ffmpeg: session.ffmpeg.version,
      fonts: await fontPackageVersions(),
    },
    workers: spec.workers,
    browserGpu: spec.browserGpu,
    strict: spec.strict,
    videoFrameFormat: spec.videoFrameFormat,
    readyTimeoutMs: spec.readyTimeoutMs,
    seekTimeoutMs: spec.seekTimeoutMs,
    remoteTimeoutMs: spec.remoteTimeoutMs,
    // The policy this plan was made under (the context may tighten the spec's): chunks inherit it.
    network,
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
  return { plan, session, ...(captions ? { captions } : {}) };
}

/** A span past the composition's last frame is refused with the valid numbers (the CLI's --frames, a body's frames). */
function checkFrameSpan(span: FrameSpan, compositionFrames: number, fps: { num: number; den: number }, source: string): void {
  const problem = frameSpanProblem(span, compositionFrames, 'frames (--frames)', fps.num / fps.den);
  if (!problem) return;
  throw new SeekframeError('invalid-options', `${source}: ${problem}.`, {
    stage: 'config',
    details: { field: 'frames', start: span.start, end: span.end, totalFrames: compositionFrames },
  });
}

/** mov, webm and png-sequence keep the page's transparency (PNG frames); the others (mp4, gif, hls) are opaque. */
export function isTransparent(format: RenderPlan['format']): boolean {
  return format === 'mov' || format === 'webm' || format === 'png-sequence';
}

/** The decision after the page showed something canvas capture cannot draw. */
function canvasFallback(what: string): CaptureModeDecision {
  return { mode: 'beginframe', reason: `beginframe: canvas capture cannot draw this composition (${what})`, fellBack: false };
}

export function assertCaptureMode(
  mode: CaptureMode,
  browser: { path: string; supportsBeginFrame: boolean; supportsCanvasCapture?: boolean },
): void {
  if (mode === 'canvas' && !browser.supportsCanvasCapture) {
    throw new SeekframeError(
      'capture-mode-unsupported',
      `--capture-mode canvas needs a browser with HTML-in-canvas (drawElementImage, Chromium 156 or later with beginFrame control), and ${browser.path} does not have it. ` +
        'Install chromium-headless-shell 156 or later, or use --capture-mode auto.',
      { stage: 'browser', details: { browser: browser.path } },
    );
  }
  if (mode !== 'screenshot' && !browser.supportsBeginFrame) {
    throw new SeekframeError(
      'capture-mode-unsupported',
      `--capture-mode beginframe needs a browser that supports HeadlessExperimental.beginFrame, and ${browser.path} does not. ` +
        'Install chrome-headless-shell (or chromium-headless-shell), or use --capture-mode screenshot.',
      { stage: 'browser', details: { browser: browser.path } },
    );
  }
}

/** The page's clips for the render report (`__seekframe.inspectTimeline()`); none from a runtime without it. */
async function readTimelineClips(page: Pick<CapturePage, 'evaluate'>): Promise<InspectedClip[]> {
  return page.evaluate(async () => {
    const runtime = (window as unknown as { __seekframe?: { inspectTimeline?: () => Promise<{ clips: InspectedClip[] }> } }).__seekframe;
    return typeof runtime?.inspectTimeline === 'function' ? (await runtime.inspectTimeline()).clips : [];
  });
}

function withoutGpu(encoder: RenderPlan['encoder']): Omit<RenderPlan['encoder'], 'gpu' | 'hdr'> {
  const { gpu: _gpu, hdr: _hdr, ...rest } = encoder;
  return rest;
}
