import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { extractCompositionMetadata, toSeekframeError } from '@seekframe/composition';
import { chooseCaptureMode, fontPackageVersions, type CapturePage } from '@seekframe/engine';
import type { InspectedClip } from '@seekframe/runtime';
import { checkVariables } from '../plan/check-variables.js';
import { planCaptionSidecar, type CaptionSidecar } from '../plan/caption-sidecar.js';
import { defaultFps, frameCount } from '../plan/frame-timing.js';
import { outputSize } from '../plan/output-size.js';
import { sealPlan, type RenderPlan } from '../plan/render-plan.js';
import { parseRenderSpec, type RenderSpec, type RenderSpecInput } from '../plan/render-spec.js';
import { runLint } from '../plan/run-lint.js';
import { displayPath } from '../serve/display-path.js';
import { ProblemLog } from '../serve/problem-log.js';
import { preflightHost } from '../serve/preflight-host.js';
import { resolveProject } from '../serve/resolve-project.js';
import { reportPageWarnings, reportSilentProblem } from './blank-render.js';
import { assertCaptureMode, isTransparent } from './capture-mode-rules.js';
import { CleanupStack } from './cleanup-stack.js';
import { describeLength, pageDuration } from './composition-length.js';
import { openPlanningPages } from './plan-capture-page.js';
import { planEncoder } from './plan-encoder.js';
import { planLength } from './plan-length.js';
import { planMedia } from './plan-media.js';
import { eventSink, type RenderContext } from './render-context.js';
import { abortError, rootCause } from './render-errors.js';
import type { RenderStage } from './render-events.js';
import { startRenderGuards } from './render-guards.js';
import { chooseWorkers, openRenderSession, type RenderSession } from './render-session.js';
import { seekframeVersion } from './seekframe-version.js';
import { alphaFlattenedProblem, showsBackdrop } from './transparent-backdrop.js';

// Kept where their callers have always found them.
export { assertCaptureMode, isTransparent } from './capture-mode-rules.js';

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
 * starts no browser more than before the seams were cut. One step per stage it emits (lint, load,
 * variables, serve, media), the longer ones in their own modules; this function holds their order.
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
  const length = planLength({ spec, metadata, fps, size, source, entryFile: project.entryFile, capturedFrames: options.capturedFrames });
  const encoder = planEncoder(spec, size, fps);

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
          totalFrames: length.totalFrames,
          firstFrame: spec.frames?.start ?? 0,
          source,
        });
  let captions = length.fromTimeline ? undefined : planCaptions();

  stage('serve');
  // The page's virtual Date.now() at t = 0, fixed here: every chunk of this plan shows the same clock.
  const epochMs = Math.floor(plannedAt / 1000) * 1000;
  const variables = spec.variables ?? {};
  const pageSettings = { root: project.root, entry: project.entry, variables, seed: RENDER_SEED, fps, epochMs, network };
  const session = await openRenderSession({ ...pageSettings, remoteTimeoutMs: spec.remoteTimeoutMs }, context, cleanup);
  const transparent = isTransparent(spec.format);
  const chosen = chooseCaptureMode(spec.captureMode, session.browser);
  if (chosen.fellBack) warn('capture/screenshot-fallback', chosen.reason);
  assertCaptureMode(chosen.mode, session.browser);

  stage('media');
  // A length read from the page's timeline is known only once the page is loaded: no early workers then.
  const workers =
    options.keepPage && !length.fromTimeline ? chooseWorkers(spec.workers, length.capturedFrames, session.tuning, spec.limits) : undefined;
  if (workers) session.workers = workers;
  const pages = await openPlanningPages({
    spec,
    metadata,
    session,
    decision: chosen,
    transparent,
    workers: workers?.value ?? 1,
    cleanup,
    signal: options.signal,
    warn,
  });
  const { decision, opened } = pages;
  // The report may reach a client: the browser is named by its file name, not its path on this machine.
  if (context.profile) {
    const browserPath = session.browser.path;
    const reason = browserPath ? decision.reason.split(browserPath).join(path.basename(browserPath)) : decision.reason;
    context.profile.captureMode = { value: decision.mode, requested: spec.captureMode, reason };
  }
  if (options.keepPage) session.adopt.push(opened.worker, ...pages.early);
  if (length.fromTimeline) {
    length.count(await pageDuration(opened.worker.page));
    captions = planCaptions();
  }
  if (context.profile) context.profile.length = describeLength(metadata, frameCount(length.compositionSeconds, fps) * (fps.den / fps.num));
  context.profile?.enter('media');
  if (context.profile) context.profile.clips = await readTimelineClips(opened.worker.page);
  // A missing media file is reported by the server with the document that used it.
  session.problems.assertNone();
  await reportPageWarnings(opened.worker.page, spec.strict, session.emit);
  // A transparent overlay rendered to a format without alpha: white text on white, unless told.
  if (!transparent && (await showsBackdrop(opened.worker.page)))
    reportSilentProblem(alphaFlattenedProblem(source, spec.format), spec.strict, session.emit);
  if (!options.keepPage) await opened.worker.close();
  const { media, hdr } = await planMedia(spec, opened.clips, session);
  if (hdr) encoder.hdr = hdr;

  const versions = {
    seekframe: await seekframeVersion(),
    chromium: session.browser.version,
    ffmpeg: session.ffmpeg.version,
    fonts: await fontPackageVersions(),
  };
  const facts = { entry: project.entry, metadata, fps, totalFrames: length.totalFrames, encoder, media, versions, network };
  const plan = planFromSpec(spec, { ...facts, captureMode: decision.mode, epochMs, variables });
  return { plan, session, ...(captions ? { captions } : {}) };
}

/** The page's clips for the render report (`__seekframe.inspectTimeline()`); none from a runtime without it. */
async function readTimelineClips(page: Pick<CapturePage, 'evaluate'>): Promise<InspectedClip[]> {
  return page.evaluate(async () => {
    const runtime = (window as unknown as { __seekframe?: { inspectTimeline?: () => Promise<{ clips: InspectedClip[] }> } }).__seekframe;
    return typeof runtime?.inspectTimeline === 'function' ? (await runtime.inspectTimeline()).clips : [];
  });
}

/** The sealed plan: what the stages found, and the spec's settings every chunk renders with. */
function planFromSpec(
  spec: RenderSpec,
  facts: Pick<
    RenderPlan,
    'entry' | 'fps' | 'totalFrames' | 'encoder' | 'captureMode' | 'epochMs' | 'variables' | 'media' | 'versions' | 'network'
  > & {
    metadata: { width: number; height: number };
  },
): RenderPlan {
  const { metadata, ...found } = facts;
  return sealPlan({
    version: 1,
    ...found,
    width: metadata.width,
    height: metadata.height,
    // Only when scaled: a plan of an unscaled render hashes as it did before --scale existed.
    ...(spec.scale !== 1 ? { scale: spec.scale } : {}),
    // Only when given: a plan of every frame hashes as it did before --frames existed.
    ...(spec.frames ? { frames: spec.frames } : {}),
    format: spec.format,
    seed: RENDER_SEED,
    workers: spec.workers,
    browserGpu: spec.browserGpu,
    strict: spec.strict,
    videoFrameFormat: spec.videoFrameFormat,
    readyTimeoutMs: spec.readyTimeoutMs,
    seekTimeoutMs: spec.seekTimeoutMs,
    remoteTimeoutMs: spec.remoteTimeoutMs,
    // The policy this plan was made under (the context may tighten the spec's): chunks inherit it.
    ...(spec.limits ? { limits: spec.limits } : {}),
  });
}
