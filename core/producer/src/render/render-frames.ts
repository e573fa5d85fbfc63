import path from 'node:path';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import { canvasPixelsFor, probeHardwareEncoder, type EncoderOptions } from '@seekframe/engine';
import { firstFrame, planHash, type RenderPlan } from '../plan/render-plan.js';
import { stricterLimits } from '../plan/render-limits.js';
import { resolveProject } from '../serve/resolve-project.js';
import { blankRenderProblem, reportSilentProblem } from './blank-render.js';
import { captureAndEncode, type CaptureAndEncodeOptions } from './capture-and-encode.js';
import { chooseHardwareEncoder } from './choose-hardware-encoder.js';
import { CleanupStack } from './cleanup-stack.js';
import { assertCaptureMode, isTransparent } from './plan-render.js';
import { prepareVideoFrames } from './prepare-video-frames.js';
import type { ProjectRenderContext } from './render-context.js';
import { renderHdrPasses } from './render-hdr-passes.js';
import { chooseWorkers, openRenderSession, type RenderSession } from './render-session.js';
import { AlphaWatch, alphaLostError, type AlphaFormat, type AlphaVerdict } from './output-alpha.js';
import { abortError, rootCause } from './render-errors.js';
import { startRenderGuards } from './render-guards.js';

/** Frames [start, end) of a plan, 0-based. */
export interface FrameRange {
  start: number;
  end: number;
}

export type RenderTarget =
  /** The local render: the range (normally the whole plan) streamed into one encoder, written to the final file. */
  | { kind: 'output'; path: string; audio?: string }
  /**
   * A video-only piece that joins without re-encoding (assembleSegments): mp4 = H.264 with a
   * keyframe at its first frame, closed GOPs, no B-frames, timestamps from 0 at 1/fps;
   * mov = ProRes (every frame intra); png-sequence = a folder of frames numbered as in the whole render.
   */
  | { kind: 'segment'; path: string }
  /**
   * Stills: only these frames of the range (output numbers, in this order), as a png-sequence
   * folder numbered from 1 in that order. Captured exactly as a png-sequence output (the plan's
   * format must be png-sequence), so each file is that frame of a png-sequence render.
   */
  | { kind: 'stills'; path: string; frames: readonly number[] };

export interface RenderFramesResult {
  frames: number;
  output: string;
  size: number;
  /** Browser processes that captured the range. */
  workers: number;
  /** mov, webm and png-sequence outputs: what the decode-level alpha check found. */
  alpha?: AlphaVerdict;
}

/** Longest GOP of a segment piece (x264's default keyint); every piece starts with a keyframe anyway. */
const SEGMENT_GOP = 250;

/**
 * Renders frames [start, end) of a plan from the project in `context.projectDir`: opens the
 * project server with the plan's page settings (seed, clock epoch, variables), extracts only the
 * video frames the range shows, captures with the worker pool and encodes into `target`. Every
 * guard of a render applies: wall-time limit, page-watch timeouts, the network sandbox, media
 * source checks, HDR two-pass capture (one-piece mp4), the blank-render check (whole range),
 * --strict. Nothing is left behind on failure or abort.
 */
export async function renderFrames(
  plan: RenderPlan,
  range: FrameRange,
  target: RenderTarget,
  context: ProjectRenderContext,
): Promise<RenderFramesResult> {
  checkPlan(plan);
  checkRange(plan, range);
  checkTarget(plan, range, target);
  const cleanup = new CleanupStack();
  const limits = stricterLimits(plan.limits, context.limits);
  const guards = startRenderGuards(limits, context, cleanup);
  const signal = context.signal ? AbortSignal.any([context.signal, guards.signal]) : guards.signal;
  let session: RenderSession | undefined;
  try {
    const project = await resolveProject(path.join(context.projectDir, ...plan.entry.split('/')));
    session = await openRenderSession(
      {
        root: project.root,
        entry: plan.entry,
        variables: plan.variables,
        seed: plan.seed,
        fps: plan.fps,
        epochMs: plan.epochMs,
        network: plan.network,
        remoteTimeoutMs: plan.remoteTimeoutMs,
      },
      guards.context,
      cleanup,
    );
    assertCaptureMode(plan.captureMode, session.browser);
    return await renderSessionFrames(plan, range, target, session, signal);
  } catch (caught) {
    throw abortError(context.signal, guards.signal) ?? rootCause(toSeekframeError(caught, { code: 'render-failed' }), session?.problems);
  } finally {
    await cleanup.run();
  }
}

/**
 * renderFrames inside an open session: renderComposition calls this with the plan step's
 * session, whose open page and early workers the pool adopts.
 */
export async function renderSessionFrames(
  plan: RenderPlan,
  range: FrameRange,
  target: RenderTarget,
  session: RenderSession,
  signal: AbortSignal,
): Promise<RenderFramesResult> {
  const picked = target.kind === 'stills' ? target.frames : undefined;
  if (picked) checkStills(plan, range, picked);
  const frames = picked?.length ?? range.end - range.start;
  const whole = !picked && range.start === 0 && range.end === plan.totalFrames;
  // The composition frames the range shows: the same numbers unless the plan outputs a span (--frames).
  const shown = { start: range.start + firstFrame(plan), end: range.end + firstFrame(plan) };
  const profile = session.profile;
  profile?.enter('media');
  const media = await prepareVideoFrames(plan, shown, session, signal);
  const workerChoice =
    whole && session.workers !== undefined ? session.workers : chooseWorkers(plan.workers, frames, session.tuning, plan.limits);
  const workers = workerChoice.value;
  if (profile) profile.workers = workerChoice;
  const encoder = await encoderFor(plan, range, target, session);
  const entry = plan.entry;
  // Alpha asked for (mov, webm, png-sequence into the final output): checked in the encoded file before it is published.
  const alpha =
    target.kind !== 'segment' && isTransparent(plan.format)
      ? new AlphaWatch(
          Math.min(frames, session.tuning.maxFrames ?? Infinity),
          plan.captureMode === 'canvas'
            ? { width: Math.round(plan.width * (plan.scale ?? 1)), height: Math.round(plan.height * (plan.scale ?? 1)) }
            : undefined,
        )
      : undefined;
  let alphaVerdict: AlphaVerdict | undefined;

  session.emit({ type: 'stage', stage: 'capture' });
  const job: CaptureAndEncodeOptions = {
    browser: session.browser,
    page: {
      url: session.server.entryUrl,
      width: plan.width,
      height: plan.height,
      scale: plan.scale ?? 1,
      mode: plan.captureMode,
      canvasPixels: canvasPixelsFor({
        yuv420: plan.format === 'mp4' || plan.format === 'hls',
        width: Math.round(plan.width * (plan.scale ?? 1)),
        height: Math.round(plan.height * (plan.scale ?? 1)),
      }),
      readyTimeoutMs: plan.readyTimeoutMs,
      seekTimeoutMs: plan.seekTimeoutMs,
    },
    server: session.server,
    workers,
    range: shown,
    ...(picked ? { frames: picked.map((frame) => frame + firstFrame(plan)) } : {}),
    fps: plan.fps,
    tuning: session.tuning,
    transparent: isTransparent(plan.format),
    gpu: plan.browserGpu,
    videoFrames: media.videoFrames,
    adoptWorkers: session.adopt.splice(0),
    browserPool: session.browserPool,
    encoder,
    signal,
    onProgress: (framesRendered, elapsedMs) => {
      const speed = elapsedMs > 0 ? (framesRendered * 1000) / elapsedMs : 0;
      session.emit({
        type: 'progress',
        stage: 'capture',
        framesRendered,
        totalFrames: frames,
        percent: (framesRendered / frames) * 100,
        fps: speed,
        eta: speed > 0 ? (frames - framesRendered) / speed : null,
      });
    },
    // A flat piece of a longer render is normal; only a whole render painted in one colour is blank.
    ...(target.kind === 'output' && whole
      ? { onBlank: (colour: string) => reportSilentProblem(blankRenderProblem(colour, entry), plan.strict, session.emit) }
      : {}),
    beforeFinish: () => session.emit({ type: 'stage', stage: 'finish' }),
    onCaptured: (stats) => {
      // The frame costs are read as a contiguous run from firstFrame; stills are not one.
      if (profile && !picked)
        profile.capture = {
          firstFrame: shown.start,
          frameMs: stats.frameMs,
          ...(stats.frameCpuMs ? { frameCpuMs: stats.frameCpuMs } : {}),
          encoderWaitMs: stats.encoderWaitMs,
          reusedFrames: stats.reusedFrames,
        };
    },
    ...(alpha
      ? {
          observeFrame: (index: number, frame: Buffer) => alpha.observe(index, frame),
          verifyOutput: async (encodedPath: string) => {
            profile?.enter('verify');
            const format = plan.format as AlphaFormat;
            // An output png-sequence is numbered from 1 whatever the range (segments keep their place in the whole render, but are not checked).
            // The encoder's size: --scale makes it larger than the composition's.
            const encoded = {
              format,
              path: encodedPath,
              width: encoder.width,
              height: encoder.height,
              fps: plan.fps,
              startNumber: 1,
              ffmpeg: session.ffmpeg.ffmpeg,
            };
            alphaVerdict = await alpha.verify(encoded);
            if (alphaVerdict.lost) throw alphaLostError(alphaVerdict, encoded, `The ${plan.format} output of ${entry}`);
            if (alphaVerdict.skipped)
              session.emit({
                type: 'warning',
                code: 'alpha-unchecked',
                message: `The alpha channel of the ${plan.format} output was not checked: ${alphaVerdict.skipped}.`,
              });
          },
        }
      : {}),
  };
  // HDR mp4 with HDR clips: two captures keep the clips' highlights (render-hdr-passes.ts).
  const encoded =
    target.kind === 'output' && plan.encoder.hdr && media.hdrSources.length > 0
      ? await renderHdrPasses({ job, sources: media.hdrSources, hdr: plan.encoder.hdr, workDir: session.workDir, ffmpeg: session.ffmpeg })
      : await captureAndEncode(job);
  return { frames, output: encoded.output, size: encoded.size, workers, ...(alphaVerdict ? { alpha: alphaVerdict } : {}) };
}

async function encoderFor(
  plan: RenderPlan,
  range: FrameRange,
  target: RenderTarget,
  session: RenderSession,
): Promise<Omit<EncoderOptions, 'inputFormat'>> {
  const scale = plan.scale ?? 1;
  const base = {
    output: path.resolve(target.path),
    // Whole pixels: planRender refused a scale that gives fractions, so rounding only drops float noise.
    width: Math.round(plan.width * scale),
    height: Math.round(plan.height * scale),
    fps: plan.fps,
    quality: plan.encoder.quality,
    ffmpeg: session.ffmpeg.ffmpeg,
  };
  // The plan's --crf or --video-bitrate, when one was given.
  const rate = {
    ...(plan.encoder.crf === undefined ? {} : { crf: plan.encoder.crf }),
    ...(plan.encoder.videoBitrate === undefined ? {} : { videoBitrate: plan.encoder.videoBitrate }),
  };
  if (target.kind === 'stills') return { ...base, format: 'png-sequence' };
  if (target.kind === 'segment') {
    if (plan.format === 'mp4') return { ...base, ...rate, format: 'mp4', segment: { gop: Math.min(SEGMENT_GOP, range.end - range.start) } };
    if (plan.format === 'png-sequence') return { ...base, format: 'png-sequence', startNumber: range.start + 1 };
    return { ...base, format: 'mov' };
  }
  let hardwareEncoder: EncoderOptions['hardwareEncoder'];
  if (plan.encoder.gpu) {
    // --gpu: a real one-frame test of each hardware encoder here; software with a warning otherwise.
    const hardware = await chooseHardwareEncoder(plan.format, () => probeHardwareEncoder({ ffmpeg: session.ffmpeg.ffmpeg }));
    if (hardware.warning) session.emit(hardware.warning);
    if (hardware.encoder && plan.encoder.hdr) {
      session.emit({
        type: 'warning',
        code: 'gpu/hdr-software',
        message: `--gpu: HDR output is 10-bit HEVC from libx265; ${hardware.encoder} (8-bit H.264) is not used for this render.`,
      });
    } else {
      hardwareEncoder = hardware.encoder;
    }
  }
  // The mix is AAC (Opus for webm), already what mp4, png-sequence and webm carry: copied, not encoded twice.
  const audioCopy = target.audio !== undefined && plan.format !== 'mov';
  return {
    ...base,
    format: plan.format,
    ...rate,
    ...(plan.format === 'gif' ? { gifLoop: plan.encoder.gifLoop ?? 0 } : {}),
    ...(plan.format === 'hls' ? { hlsSegmentFrames: plan.encoder.hlsSegmentFrames } : {}),
    ...(hardwareEncoder ? { hardwareEncoder } : {}),
    ...(plan.encoder.hdr ? { hdr: plan.encoder.hdr } : {}),
    ...(target.audio ? { audio: target.audio, audioCopy } : {}),
  };
}

/** A plan edited after planning (or damaged in transit) would render other pixels than its hash promises. */
function checkPlan(plan: RenderPlan): void {
  if (plan.version !== 1 || planHash(plan) !== plan.hash) {
    throw new SeekframeError(
      'plan-hash-mismatch',
      `The render plan's contents do not match its hash ${String(plan.hash).slice(0, 12)}…; plan again with planRender instead of editing a plan.`,
      {
        stage: 'config',
        details: { hash: plan.hash },
      },
    );
  }
}

function checkRange(plan: RenderPlan, range: FrameRange): void {
  const { start, end } = range;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > plan.totalFrames || start >= end) {
    throw new SeekframeError(
      'invalid-options',
      `Frame range [${start}, ${end}) is not inside the plan's ${plan.totalFrames} frames; give whole numbers with 0 <= start < end <= ${plan.totalFrames}.`,
      {
        stage: 'config',
        details: { field: 'range', start, end, totalFrames: plan.totalFrames },
      },
    );
  }
}

/** Stills are png-sequence frames (PNG capture, transparent page), each inside the range. */
function checkStills(plan: RenderPlan, range: FrameRange, frames: readonly number[]): void {
  const outside = frames.find((frame) => !Number.isInteger(frame) || frame < range.start || frame >= range.end);
  if (plan.format !== 'png-sequence' || frames.length === 0 || outside !== undefined) {
    throw new SeekframeError(
      'invalid-options',
      `Stills need a png-sequence plan and frames inside [${range.start}, ${range.end}); got format ${plan.format} and frames ${frames.join(', ') || 'none'}.`,
      { stage: 'config', details: { field: 'frames' } },
    );
  }
}

/** What cannot be split: GIF (one palette over all frames), webm (VP9 pieces do not join by copy), hls (a folder of its own segments), HDR two-pass mp4. */
export function checkSplittable(plan: Pick<RenderPlan, 'format' | 'encoder'>): void {
  if (plan.format === 'hls') {
    throw new SeekframeError(
      'format-not-distributable',
      'hls cannot be rendered in pieces: its segments are cut by one encoder so each starts on a keyframe. Render it in one piece (renderFrames with kind "output", or `seekframe render --format hls`), or render mp4 in pieces and segment that.',
      { stage: 'config', details: { format: plan.format } },
    );
  }
  if (plan.format === 'gif' || plan.format === 'webm') {
    throw new SeekframeError(
      'format-not-distributable',
      `${plan.format} cannot be rendered in pieces: ${plan.format === 'gif' ? 'its palette is built from every frame at once' : 'VP9 pieces do not join without re-encoding'}. Render it in one piece (renderFrames with kind "output"), or render mp4, mov or png-sequence.`,
      { stage: 'config', details: { format: plan.format } },
    );
  }
  if (plan.encoder.hdr) {
    throw new SeekframeError(
      'format-not-distributable',
      'HDR mp4 (10-bit HEVC) cannot be rendered in pieces yet; render it in one piece, or pass sdr.',
      {
        stage: 'config',
        details: { format: plan.format, hdr: true },
      },
    );
  }
}

function checkTarget(plan: RenderPlan, range: FrameRange, target: RenderTarget): void {
  if (target.kind === 'segment') checkSplittable(plan);
  else if ((plan.format === 'gif' || plan.format === 'hls') && (range.start !== 0 || range.end !== plan.totalFrames)) checkSplittable(plan);
}
