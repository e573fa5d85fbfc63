import path from 'node:path';
import { parseRenderOptions } from '../plan/parse-render-options.js';
import { defaultOutputPath, type RenderOptions, type RenderOptionsInput } from '../plan/render-options.js';
import { mixSessionAudio } from './mix-plan-audio.js';
import { planRenderSession } from './plan-render.js';
import { eventSink, type RenderContext } from './render-context.js';
import type { RenderEvent, RenderEventListener, RenderResult } from './render-events.js';
import { describeHotspot, SLOW_CLIP_WARNING_MS } from '../report/frame-hotspots.js';
import { RenderProfile } from '../report/render-profile.js';
import { buildRenderReport } from '../report/render-report.js';
import { renderSessionFrames } from './render-frames.js';
import { guardedRender } from './render-guards.js';
import { ProblemLog } from '../serve/problem-log.js';
import { writeCaptionSidecar } from '../plan/caption-sidecar.js';

/**
 * One render job end to end, for the CLI, the server and batch: the spec is planned
 * (planRender: lint, load, variables, serve, media), the soundtrack mixed once (mixPlanAudio),
 * and the whole frame range streamed into one encoder (renderFrames, target `output`). The plan
 * step's server, browser and page stay open for the capture, so no browser starts twice.
 * Emits stage/progress/warning events and exactly one `complete` or `error`. Whatever happens
 * (failure, abort), every browser, server, ffmpeg process and temp dir is gone when it settles,
 * and no partial output is left.
 */
export async function renderComposition(
  input: RenderOptionsInput | RenderOptions,
  onEvent?: RenderEventListener,
  context: RenderContext = {},
): Promise<RenderResult> {
  const startedAt = Date.now();
  const profile = context.profile ?? new RenderProfile();
  const sink = eventSink({ onEvent: context.onEvent ?? onEvent });
  const emit = (event: RenderEvent): void => {
    if (event.type === 'stage') profile.stageEvent(event.stage);
    if (event.type === 'warning') profile.warnings.push({ code: event.code, message: event.message });
    sink(event);
  };
  // The server of the plan step and of the capture record here; a failure is explained from it.
  const problems = context.problems ?? new ProblemLog();
  return guardedRender(context, emit, problems, async (start) => {
    const { signal: optionSignal, ...spec } = parseRenderOptions(input);
    const { guards, signal, cleanup } = start(spec.limits, optionSignal);
    const output = path.resolve(spec.output ?? defaultOutputPath(spec.projectDir, spec.format));
    const { plan, session, captions } = await planRenderSession(
      spec,
      { ...guards.context, onEvent: emit, signal, problems, profile },
      cleanup,
      { keepPage: true, signal },
    );
    profile.fps = plan.fps;
    checkpoint(signal);
    profile.enter('audio');
    const audio = await mixSessionAudio(
      plan,
      path.join(session.workDir, plan.media.audio?.codec === 'opus' ? 'audio.ogg' : 'audio.m4a'),
      session,
      signal,
    );
    const encoded = await renderSessionFrames(
      plan,
      { start: 0, end: plan.totalFrames },
      { kind: 'output', path: output, ...(audio ? { audio } : {}) },
      session,
      signal,
    );
    // --captions: the sidecar follows the video it belongs to (made at plan time, so it cannot fail on the data now).
    if (captions) await writeCaptionSidecar(captions);

    const videoDuration = plan.totalFrames * (plan.fps.den / plan.fps.num);
    const report = buildRenderReport(profile, { status: 'completed', totalFrames: plan.totalFrames });
    const captureMs = report.stages.find((s) => s.stage === 'capture')?.ms ?? 0;
    for (const hotspot of report.hotspots.filter((h) => h.extraMs >= SLOW_CLIP_WARNING_MS)) {
      // Its extra time against the capture's whole cost, in the same measure (the browser's CPU where it was read).
      const costMs = hotspot.share > 0 ? hotspot.extraMs / hotspot.share : captureMs;
      emit({ type: 'warning', code: 'slow-clip', message: describeHotspot(hotspot, costMs), details: { ...hotspot } });
    }
    const result: RenderResult = {
      output: encoded.output,
      format: plan.format,
      size: encoded.size,
      durationMs: Date.now() - startedAt,
      videoDuration,
      frames: plan.totalFrames,
      fps: plan.fps,
      width: Math.round(plan.width * (plan.scale ?? 1)),
      height: Math.round(plan.height * (plan.scale ?? 1)),
      workers: encoded.workers,
      captureMode: plan.captureMode,
      hasAudio: audio !== null,
      browserMemoryMB: Math.round(guards.peakBrowserBytes() / 2 ** 20),
      versions: plan.versions,
      report,
      ...(captions ? { captions: { file: captions.file, cues: captions.cues, variable: captions.variable } } : {}),
    };
    emit({
      type: 'complete',
      output: result.output,
      size: result.size,
      durationMs: result.durationMs,
      videoDuration,
      versions: plan.versions,
      report,
      ...(result.captions ? { captions: result.captions } : {}),
    });
    return result;
  });
}

function checkpoint(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
