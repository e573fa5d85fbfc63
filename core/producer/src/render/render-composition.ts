import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { extractCompositionMetadata, SeekframeError, toSeekframeError } from '@seekframe/composition';
import { tempFolderPrefix, autoWorkerCount, chooseCaptureMode, ffmpegHasFilter, findBrowser, parseEncoderOptions, startPoolWorker, type BrowserInfo, type CaptureMode } from '@seekframe/engine';
import { blankRenderProblem, reportPageWarnings, reportSilentProblem } from './blank-render.js';
import { CleanupStack } from './cleanup-stack.js';
import { captureAndEncode, captureOptions, type CaptureAndEncodeOptions } from './capture-and-encode.js';
import { checkVariables } from '../plan/check-variables.js';
import { chooseDynamicRange } from './choose-dynamic-range.js';
import { chooseHardwareEncoder } from './choose-hardware-encoder.js';
import { createRuntimeInjector } from '../serve/create-runtime-injector.js';
import { fpsFromNumber, frameCount } from '../plan/frame-timing.js';
import { loadRuntimeSource } from '../serve/load-runtime-source.js';
import { parseRenderOptions } from '../plan/parse-render-options.js';
import { prepareMedia } from './prepare-media.js';
import { createProjectServer, type ProjectServer } from '../serve/project-server.js';
import type { RenderEvent, RenderEventListener, RenderResult, RenderStage } from './render-events.js';
import { defaultOutputPath, type RenderOptions, type RenderOptionsInput } from '../plan/render-options.js';
import { renderHdrPasses } from './render-hdr-passes.js';
import { resolveProject } from '../serve/resolve-project.js';
import { readInsideProject } from '../serve/read-inside-project.js';
import { runLint } from '../plan/run-lint.js';
import { displayPath } from '../serve/display-path.js';
import { capWorkers, checkRenderLimits, renderTimeoutError } from '../plan/render-limits.js';
import { startNetworkSandbox } from '../network/network-sandbox.js';

/** Math.random seed of every render: the same composition renders the same pixels every time. */
const RENDER_SEED = 0x5eedf4a3;

/**
 * One render job end to end: lint, load, variables, serve, media, capture + encode, finish.
 * Emits stage/progress/warning events and exactly one `complete` or `error`. Whatever happens
 * (failure, abort), every browser, server, ffmpeg process and temp dir is gone when it settles,
 * and no partial output is left.
 */
export async function renderComposition(input: RenderOptionsInput | RenderOptions, onEvent?: RenderEventListener): Promise<RenderResult> {
  const startedAt = Date.now();
  const emit = (event: RenderEvent): void => {
    try {
      onEvent?.(event);
    } catch {
      // A listener's bug must not break the render.
    }
  };
  const cleanup = new CleanupStack();
  let signal: AbortSignal | undefined;
  let server: ProjectServer | undefined;
  // The wall-time limit cancels through its own signal, so its error is not mistaken for a user's cancel.
  const wallTime = new AbortController();
  try {
    const options = parseRenderOptions(input);
    signal = options.signal;
    const maxSeconds = options.limits?.maxRenderSeconds;
    if (maxSeconds !== undefined) {
      const timer = setTimeout(() => wallTime.abort(renderTimeoutError(maxSeconds)), maxSeconds * 1000);
      cleanup.add(() => clearTimeout(timer));
    }
    const renderSignal = signal ? AbortSignal.any([signal, wallTime.signal]) : wallTime.signal;
    const checkpoint = (): void => {
      throwIfAborted(signal);
      if (wallTime.signal.aborted) throw wallTime.signal.reason;
    };
    const stage = (name: RenderStage): void => {
      checkpoint();
      emit({ type: 'stage', stage: name });
    };
    const project = await resolveProject(options.projectDir);
    const output = path.resolve(options.output ?? defaultOutputPath(options.projectDir, options.format));

    stage('lint');
    // A page from a request may name files outside its project (data-composition-src="../../x"); lint must not read them.
    const lintReader = options.network === 'sandboxed' ? readInsideProject(project.root) : undefined;
    for (const finding of await runLint(project.entryFile, undefined, lintReader)) {
      emit({ type: 'warning', code: `lint/${finding.rule}`, message: `${finding.file}:${finding.line}:${finding.column} ${finding.rule} ${finding.message}`, details: { ...finding } });
    }

    stage('load');
    const metadata = extractCompositionMetadata(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
    const fps = options.fps ?? (metadata.fps ? fpsFromNumber(metadata.fps) : { num: 30, den: 1 });
    const totalFrames = frameCount(metadata.duration, fps);
    if (totalFrames < 1) {
      throw new SeekframeError('empty-composition', `${project.entryFile} has data-duration="${metadata.duration}"; give the root a positive duration in seconds.`, {
        stage: 'load',
        details: { file: project.entryFile },
      });
    }

    checkRenderLimits(options.limits, { frames: totalFrames, width: metadata.width, height: metadata.height, workers: options.workers }, displayPath(project.root, project.entryFile));

    // Encoder rules (crf only for mp4/webm, even sizes for H.264...) fail now, not after capture.
    const encoderOptions = {
      format: options.format,
      output,
      width: metadata.width,
      height: metadata.height,
      fps,
      quality: options.quality,
      ...(options.crf === undefined ? {} : { crf: options.crf }),
      ...(options.videoBitrate === undefined ? {} : { videoBitrate: options.videoBitrate }),
      ...(options.format === 'gif' ? { gifLoop: options.gifLoop } : {}),
    };
    parseEncoderOptions({ ...encoderOptions, inputFormat: 'png' });
    // --gpu: a real one-frame test of each hardware encoder; software with a warning otherwise.
    const hardware = options.gpu ? await chooseHardwareEncoder(options.format) : {};
    if (hardware.warning) emit(hardware.warning);

    stage('variables');
    for (const issue of checkVariables(metadata.variables, options.variables, options.strictVariables, project.entryFile)) {
      emit({ type: 'warning', code: `variables/${issue.kind}`, message: issue.message, details: { id: issue.id, kind: issue.kind } });
    }

    stage('serve');
    const runtimeSource = await loadRuntimeSource();
    server = await createProjectServer({
      root: project.root,
      entry: project.entry,
      remoteTimeoutMs: options.remoteTimeoutMs,
      publicRemoteOnly: options.network === 'sandboxed',
      confineToRoot: options.network === 'sandboxed',
      prepareHtml: createRuntimeInjector({
        root: project.root,
        runtimeSource,
        mode: 'render',
        variables: options.variables,
        seed: RENDER_SEED,
        fps: fps.num / fps.den,
        epochMs: Math.floor(startedAt / 1000) * 1000,
      }),
    });
    const served = server;
    cleanup.add(() => served.close());
    const browser = options.network === 'sandboxed' ? await sandboxedBrowser(served, cleanup) : await findBrowser();
    const decision = chooseCaptureMode(options.captureMode, browser);
    const captureMode: CaptureMode = decision.mode;
    if (decision.fellBack) emit({ type: 'warning', code: 'capture/screenshot-fallback', message: decision.reason });
    if (captureMode === 'beginframe' && !browser.supportsBeginFrame) {
      throw new SeekframeError(
        'capture-mode-unsupported',
        `--capture-mode beginframe needs a browser that supports HeadlessExperimental.beginFrame, and ${browser.path} does not. ` +
          'Install chrome-headless-shell (or chromium-headless-shell), or use --capture-mode screenshot.',
        { stage: 'browser', details: { browser: browser.path } },
      );
    }
    const workers = capWorkers(options.workers === 'auto' ? autoWorkerCount({ frameCount: totalFrames }) : Math.min(options.workers, totalFrames), options.limits);
    const workDir = await mkdtemp(tempFolderPrefix('render'));
    cleanup.add(() => rm(workDir, { recursive: true, force: true, maxRetries: 3 }));
    const transparent = options.format === 'mov' || options.format === 'webm' || options.format === 'png-sequence';
    const page = { url: server.entryUrl, width: metadata.width, height: metadata.height, mode: captureMode, readyTimeoutMs: options.readyTimeoutMs, seekTimeoutMs: options.seekTimeoutMs };

    stage('media');
    // Workers 1..N-1 start their browsers and load the page now, while the media stage runs in
    // the first one: on 2 cores a browser start is ~1 s in which capture would otherwise wait.
    // The signal ends every wait on a page at once (cancel, wall-time limit), whatever the page does.
    const pageOptions = { ...captureOptions(page, transparent), signal: renderSignal };
    const earlyWorkers = Array.from({ length: workers - 1 }, () => startPoolWorker({ browser, mode: captureMode, gpu: options.browserGpu, page: pageOptions }));
    // Owned by the pool once capture starts; this covers a failure before that (cancel is idempotent).
    cleanup.add(() => Promise.all(earlyWorkers.map((launch) => launch.cancel())));
    const media = await prepareMedia({
      browser,
      page: pageOptions,
      gpu: options.browserGpu,
      server,
      root: project.root,
      workDir,
      fps,
      duration: totalFrames * (fps.den / fps.num),
      format: options.format,
      videoFrameFormat: options.videoFrameFormat,
      signal: renderSignal,
      sandboxed: options.network === 'sandboxed',
      toneMapHdr: await ffmpegHasFilter('zscale'),
    });
    // Closed by the pool once capture starts; this covers a failure before that (close is idempotent).
    cleanup.add(() => media.worker.session.close());
    server.assertNoProblems();
    await reportPageWarnings(media.worker.page, options.strict, emit);
    // HDR or SDR output: --hdr/--sdr and the HDR clips the media stage found.
    const range = await chooseDynamicRange({
      format: options.format,
      hdr: options.hdr,
      sdr: options.sdr,
      sources: media.hdrSources,
      zscale: await ffmpegHasFilter('zscale'),
      hardwareEncoder: hardware.encoder,
    });
    for (const warning of range.warnings) emit(warning);

    stage('capture');
    const job: CaptureAndEncodeOptions = {
      browser,
      page,
      server,
      workers,
      totalFrames,
      fps,
      transparent,
      gpu: options.browserGpu,
      videoFrames: media.videoFrames,
      adoptWorkers: [media.worker, ...earlyWorkers],
      encoder: {
        ...encoderOptions,
        ...(hardware.encoder && range.keepHardwareEncoder ? { hardwareEncoder: hardware.encoder } : {}),
        ...(range.hdr ? { hdr: range.hdr } : {}),
        ...(media.audioFile ? { audio: media.audioFile } : {}),
      },
      signal: renderSignal,
      onProgress: (framesRendered, elapsedMs) => {
        const speed = elapsedMs > 0 ? (framesRendered * 1000) / elapsedMs : 0;
        emit({
          type: 'progress',
          stage: 'capture',
          framesRendered,
          totalFrames,
          percent: (framesRendered / totalFrames) * 100,
          fps: speed,
          eta: speed > 0 ? (totalFrames - framesRendered) / speed : null,
        });
      },
      onBlank: (colour) => reportSilentProblem(blankRenderProblem(colour, path.relative(project.root, project.entryFile) || project.entryFile), options.strict, emit),
      beforeFinish: () => {
        emit({ type: 'stage', stage: 'finish' });
      },
    };
    // HDR mp4 with HDR clips: two captures keep the clips' highlights (render-hdr-passes.ts).
    const encoded = range.hdr && media.hdrSources.length > 0
      ? await renderHdrPasses({ job, sources: media.hdrSources, hdr: range.hdr, workDir })
      : await captureAndEncode(job);

    const videoDuration = totalFrames * (fps.den / fps.num);
    const result: RenderResult = {
      output: encoded.output,
      format: options.format,
      size: encoded.size,
      durationMs: Date.now() - startedAt,
      videoDuration,
      frames: totalFrames,
      fps,
      width: metadata.width,
      height: metadata.height,
      workers,
      captureMode,
      hasAudio: Boolean(media.audioFile),
    };
    emit({ type: 'complete', output: result.output, size: result.size, durationMs: result.durationMs, videoDuration });
    return result;
  } catch (caught) {
    const error = signal?.aborted ? cancelledError(signal) : wallTime.signal.aborted ? (wallTime.signal.reason as SeekframeError) : rootCause(toSeekframeError(caught, { code: 'render-failed' }), server);
    emit({ type: 'error', error: error.toJSON() });
    throw error;
  } finally {
    await cleanup.run();
  }
}

/**
 * Errors that are often only the visible consequence of a missing local file or a failed remote
 * asset (an image that never decodes, a video ffprobe cannot read). When the server recorded
 * such a problem, it is the message the user needs.
 */
const CONSEQUENCES = new Set([
  'ready-failed',
  'ready-timeout',
  'page-load-failed',
  'page-script-error',
  'seek-timeout',
  'media-probe-failed',
  'video-extract-failed',
  'audio-mix-failed',
  'capture-failed',
  'render-failed',
]);

function rootCause(error: SeekframeError, server: ProjectServer | undefined): SeekframeError {
  const problem = server?.problems()[0];
  if (problem && CONSEQUENCES.has(error.code)) return problem;
  const pending = server?.pendingRemote() ?? [];
  if (error.code === 'ready-timeout' && pending.length > 0) {
    // The browser only knows the page did not load; the server knows which remote URL is hanging.
    return new SeekframeError(
      'ready-timeout',
      `${error.message} Still waiting for ${pending.join(', ')} (no answer yet); check that server, or copy the file into the project.`,
      { stage: error.stage ?? 'capture', retryable: true, details: { ...error.details, pending }, cause: error },
    );
  }
  return error;
}

/** The browser, launched with flags that let its pages reach only the project server. */
async function sandboxedBrowser(server: ProjectServer, cleanup: CleanupStack): Promise<BrowserInfo> {
  const sandbox = await startNetworkSandbox(server.origin);
  cleanup.add(() => sandbox.close());
  return { ...(await findBrowser()), extraArgs: sandbox.args };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError(signal);
}

function cancelledError(signal: AbortSignal): SeekframeError {
  const reason = signal.reason instanceof Error ? signal.reason.message : signal.reason === undefined ? 'aborted' : String(signal.reason);
  return new SeekframeError('render-cancelled', `The render was cancelled (${reason}); no output was written.`, { stage: 'capture', retryable: true });
}
