import path from 'node:path';
import { findReferences, toSeekframeError, type CompositionMetadata, type FileReference } from '@seekframe/composition';
import { chooseCaptureMode, type CapturePage } from '@seekframe/engine';
import type { MediaClip, RuntimeWarning, TimelineInspection } from '@seekframe/runtime';
import { captureOptions } from '../render/capture-and-encode.js';
import { CleanupStack } from '../render/cleanup-stack.js';
import { openMediaPage } from '../render/open-media-page.js';
import { assertCaptureMode, isTransparent, RENDER_SEED } from '../render/plan-render.js';
import type { RenderContext } from '../render/render-context.js';
import { openRenderSession } from '../render/render-session.js';
import { displayPath } from '../serve/display-path.js';
import { ProblemLog } from '../serve/problem-log.js';
import { readProjectFile } from '../serve/read-project-file.js';
import type { ProjectLocation } from '../serve/resolve-project.js';
import type { Fps, RenderSpec } from '../plan/render-spec.js';
import type { CheckFinding } from './check-report.js';
import { auditAudio, type AudioReport } from './audio-audit.js';
import { contrastFindings } from './contrast-audit.js';
import { layoutFindings } from './layout-audit.js';
import { runMotionCheck } from './motion-check.js';
import { elementKey, planMotion } from './motion-plan.js';
import { pageFindings, type PageFacts } from './page-findings.js';

export interface PageInspection {
  findings: CheckFinding[];
  sampledTimes: number[];
  /** Set when the page did not load, so the motion check could not run. */
  motionSkipped?: string;
  /** Checks that did not run, and why. */
  skipped: Partial<Record<'layout' | 'contrast' | 'audio', string>>;
  /** Elements left out of the motion check to keep within the sample budget. */
  skippedMovers: number;
  audio?: AudioReport;
  /** The composition's length as the page counts it (the timeline's, when no data-duration says it). */
  duration?: number;
}

export interface InspectOptions {
  maxSamples: number;
  cwd: string;
  /** Loudness the audio audit compares the mix with, LUFS. */
  loudnessTarget: number;
  /** Called with each frame the motion check captures (the contact sheet keeps them). */
  onFrame?: (t: number, frame: Buffer) => void | Promise<void>;
}

/**
 * Opens the composition the way a render does (same project server, runtime settings, network
 * policy and capture page, PNG frames), then runs the motion check on that page and collects
 * what went wrong in it. Nothing here fails on a page problem: each becomes a finding.
 */
export async function inspectPage(
  spec: RenderSpec,
  project: ProjectLocation,
  metadata: CompositionMetadata,
  fps: Fps,
  context: RenderContext,
  options: InspectOptions,
): Promise<PageInspection> {
  const { maxSamples, cwd } = options;
  const notLoaded = (reason: string): PageInspection['skipped'] => ({ layout: reason, contrast: reason, audio: reason });
  const cleanup = new CleanupStack();
  const problems = new ProblemLog();
  try {
    const session = await openRenderSession(
      {
        root: project.root,
        entry: project.entry,
        variables: spec.variables ?? {},
        seed: RENDER_SEED,
        fps,
        epochMs: Math.floor(Date.now() / 1000) * 1000,
        network: context.network ?? spec.network,
        remoteTimeoutMs: spec.remoteTimeoutMs,
      },
      { ...context, problems },
      cleanup,
    );
    // auto never picks canvas here: its blockers are found by the render's plan step, not by check.
    const mode = chooseCaptureMode(spec.captureMode, session.browser, { allowCanvas: spec.captureMode === 'canvas' }).mode;
    assertCaptureMode(mode, session.browser);
    const target = {
      url: session.server.entryUrl,
      width: metadata.width,
      height: metadata.height,
      mode,
      readyTimeoutMs: spec.readyTimeoutMs,
      seekTimeoutMs: spec.seekTimeoutMs,
    };
    // PNG frames compare exactly; script errors become findings instead of stopping the seeks.
    const pageOptions = {
      ...captureOptions(target, isTransparent(spec.format), { ...session.tuning, frameFormat: 'png' }),
      failOnScriptErrors: false,
      ...(context.signal ? { signal: context.signal } : {}),
    };
    const origin = session.server.origin;
    let page: CapturePage;
    let mediaClips: MediaClip[];
    try {
      const opened = await openMediaPage({ browser: session.browser, page: pageOptions, gpu: spec.browserGpu, pool: session.browserPool });
      cleanup.add(() => opened.worker.close());
      page = opened.worker.page;
      mediaClips = opened.clips;
    } catch (caught) {
      const error = toSeekframeError(caught, { code: 'page-load-failed' });
      const facts = pageFindings({
        served: problems.problems(),
        browser: [],
        scriptErrors: [],
        warnings: [],
        origin,
        ...(await fileFacts(problems, project, cwd)),
      });
      const reason = `the page did not load (${error.code})`;
      // A file the server could not find is why the page did not get ready: that finding says it.
      if (facts.length > 0)
        return { findings: facts, sampledTimes: [], motionSkipped: reason, skipped: notLoaded(reason), skippedMovers: 0 };
      const loadFailed: CheckFinding = {
        check: 'page',
        code: 'page/load-failed',
        severity: 'error',
        message: `The page did not load: ${error.message.split(`${origin}/`).join('')}`,
        element: null,
        time: null,
        file: null,
        fix: 'Fix what the message names; the motion check needs a page that loads.',
        details: { code: error.code },
      };
      return { findings: [loadFailed], sampledTimes: [], motionSkipped: reason, skipped: notLoaded(reason), skippedMovers: 0 };
    }

    const findings: CheckFinding[] = [];
    const sampledTimes: number[] = [];
    const skipped: PageInspection['skipped'] = {};
    let skippedMovers = 0;
    let motionSkipped: string | undefined;
    let inspection: TimelineInspection | undefined;
    try {
      const first = await readTimeline(page);
      inspection = first;
      const plan = planMotion(first, { fps, compositionId: metadata.id, maxSamples });
      const motion = await runMotionCheck(page, plan, first, metadata, {
        audits: true,
        ...(options.onFrame ? { onFrame: options.onFrame } : {}),
      });
      findings.push(...plan.findings, ...motion.findings, ...layoutFindings(motion.texts, metadata), ...contrastFindings(motion.contrast));
      sampledTimes.push(...motion.sampledTimes);
      skippedMovers = plan.skippedMovers;
      // Animations a timer or a class change starts later are known once a seek passed them.
      const seen = new Set(first.animations.map(animationKey));
      const later = await readTimeline(page);
      const fresh = later.animations.filter((a) => !seen.has(animationKey(a)));
      if (fresh.length > 0) {
        const again = planMotion(
          { ...later, animations: fresh },
          { fps, compositionId: metadata.id, maxSamples: Math.max(2, maxSamples - sampledTimes.length) },
        );
        const more = await runMotionCheck(page, { ...again, clips: [], captions: [] }, later, metadata, {
          ...(options.onFrame ? { onFrame: options.onFrame } : {}),
        });
        findings.push(...again.findings, ...more.findings);
        sampledTimes.push(...more.sampledTimes.filter((t) => !sampledTimes.includes(t)));
        skippedMovers += again.skippedMovers;
      }
    } catch (caught) {
      // A seek that failed (a script that throws on seek, a page that hangs): the rest still counts.
      const error = toSeekframeError(caught, { code: 'capture-failed' });
      motionSkipped = `a seek failed (${error.code})`;
      skipped.layout = motionSkipped;
      skipped.contrast = motionSkipped;
      findings.push({
        check: 'page',
        code: `page/${error.code}`,
        severity: 'error',
        message: error.message.split(`${origin}/`).join(''),
        element: null,
        time: typeof error.details?.time === 'number' ? { start: error.details.time, end: error.details.time } : null,
        file: null,
        fix: 'A render fails the same way; fix what the message names.',
      });
    }

    const scriptErrors = await page.evaluate(() => (window as unknown as { __seekframe: { errors(): string[] } }).__seekframe.errors());
    const warnings = await page.evaluate(() => {
      const runtime = (window as unknown as { __seekframe?: { warnings?: () => RuntimeWarning[] } }).__seekframe;
      return typeof runtime?.warnings === 'function' ? runtime.warnings() : [];
    });
    findings.unshift(
      ...pageFindings({
        served: problems.problems(),
        browser: page.problems(),
        scriptErrors,
        warnings,
        origin,
        ...(await fileFacts(problems, project, cwd)),
      }),
    );
    let audio: AudioReport | undefined;
    if (spec.format === 'gif') skipped.audio = 'gif has no audio';
    else {
      const audible = await auditAudio(session, {
        clips: mediaClips,
        inspected: inspection?.clips ?? [],
        duration: inspection?.duration ?? metadata.duration,
        codec: spec.format === 'webm' ? 'opus' : 'aac',
        target: options.loudnessTarget,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      findings.push(...audible.findings);
      audio = audible.report;
      if (!audio) skipped.audio = 'no audible clip';
    }
    return {
      findings,
      sampledTimes: sampledTimes.sort((a, b) => a - b),
      skipped,
      skippedMovers,
      ...(motionSkipped ? { motionSkipped } : {}),
      ...(audio ? { audio } : {}),
      ...(inspection ? { duration: inspection.duration } : {}),
    };
  } finally {
    await cleanup.run();
  }
}

/** Where each missing file is named (read from the document that asked for it), and how paths are shown. */
async function fileFacts(problems: ProblemLog, project: ProjectLocation, cwd: string): Promise<Pick<PageFacts, 'referrers' | 'display'>> {
  const referrers = new Map<string, FileReference[]>();
  for (const error of problems.problems()) {
    const { file, referencedBy } = (error.details ?? {}) as { file?: unknown; referencedBy?: unknown };
    if (error.code !== 'asset-not-found' || typeof file !== 'string' || typeof referencedBy !== 'string') continue;
    const html = await readProjectFile(path.join(project.root, referencedBy)).catch(() => undefined);
    if (html !== undefined) referrers.set(file, findReferences(html, referencedBy, file.split(path.sep).join('/')));
  }
  return { referrers, display: (file) => displayPath(cwd, path.join(project.root, file)) };
}

async function readTimeline(page: Pick<CapturePage, 'evaluate'>): Promise<TimelineInspection> {
  return page.evaluate(async () => {
    const runtime = (window as unknown as { __seekframe: { duration: number; inspectTimeline?: () => Promise<TimelineInspection> } })
      .__seekframe;
    return typeof runtime.inspectTimeline === 'function'
      ? runtime.inspectTimeline()
      : { duration: runtime.duration, clips: [], animations: [] };
  });
}

function animationKey(animation: TimelineInspection['animations'][number]): string {
  return `${elementKey(animation.target)}|${animation.kind}|${animation.name}|${animation.start}`;
}
