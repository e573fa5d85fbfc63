import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { extractCompositionMetadata, preflightProject, toSeekframeError, type CompositionMetadata } from '@seekframe/composition';
import { checkVariables } from '../plan/check-variables.js';
import { fpsFromNumber } from '../plan/frame-timing.js';
import { FORMAT_EXTENSIONS, parseRenderSpec, type RenderSpec, type RenderSpecInput } from '../plan/render-spec.js';
import { CleanupStack } from '../render/cleanup-stack.js';
import { describeLength, emptyComposition } from '../render/composition-length.js';
import { isTransparent, planRenderSession } from '../render/plan-render.js';
import type { RenderContext } from '../render/render-context.js';
import { renderSessionFrames } from '../render/render-frames.js';
import { displayPath } from '../serve/display-path.js';
import { ProblemLog } from '../serve/problem-log.js';
import { preflightHost } from '../serve/preflight-host.js';
import { resolveProject, type ProjectLocation } from '../serve/resolve-project.js';
import { CHECKS, statusOf, type CheckFinding, type CheckName, type CheckReport, type CheckStatus } from './check-report.js';
import { inspectPage } from './inspect-page.js';

/** Frames the motion check captures at most, by default. */
export const DEFAULT_MAX_SAMPLES = 60;
/** Frames of the sample render the alpha check encodes. */
const ALPHA_SAMPLE_FRAMES = 5;

export type CheckInput = RenderSpecInput & {
  /** Most frames the motion check captures (default 60). */
  maxSamples?: number;
  /** Warnings count as errors for `ok`. */
  strict?: boolean;
  /** Paths in findings are relative to this folder (default: the process's). */
  cwd?: string;
};

/**
 * `seekframe check`: one gate before a render. Lint (with variables), the page loaded the way a
 * render loads it (script errors, missing files, failed requests, runtime warnings), the motion
 * check on sampled frames (what the timeline says moves must move on screen, clips must be inside
 * the frame, the video must not be blank) and, for mov, webm and png-sequence, the decode-level
 * alpha check on a short sample render through the render's own path. Problems with the
 * composition are findings; only a broken environment (no browser, no ffmpeg) or bad options throw.
 */
export async function checkComposition(input: CheckInput, context: RenderContext = {}): Promise<CheckReport> {
  const began = performance.now();
  const { maxSamples = DEFAULT_MAX_SAMPLES, cwd = process.cwd(), strict = false, ...rest } = input;
  const spec = parseRenderSpec(rest);
  const project = await resolveProject(spec.projectDir, cwd);
  const findings: CheckFinding[] = [];
  const skipped: Partial<Record<CheckName, string>> = {};

  findings.push(...(await lintFindings(project, spec, context, cwd)));
  let metadata: CompositionMetadata | undefined;
  try {
    metadata = extractCompositionMetadata(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
  } catch (caught) {
    const why = `the composition cannot be read (${toSeekframeError(caught, { code: 'invalid-composition' })
      .message.split(`${path.dirname(project.entryFile)}${path.sep}`)
      .join('')})`;
    for (const check of ['page', 'motion', 'alpha'] as const) skipped[check] = why;
  }

  let sampledTimes: number[] = [];
  let length: CheckReport['length'] = null;
  if (metadata) {
    findings.push(...variableFindings(metadata, spec, displayPath(cwd, project.entryFile)));
    const fps = spec.fps ?? (metadata.fps ? fpsFromNumber(metadata.fps) : { num: 30, den: 1 });
    const page = await inspectPage(spec, project, metadata, fps, context, { maxSamples, cwd });
    findings.push(...page.findings);
    sampledTimes = page.sampledTimes;
    if (page.duration !== undefined) {
      length = describeLength(metadata, page.duration);
      if (length.seconds <= 0) findings.push(emptyLengthFinding(metadata, displayPath(cwd, project.entryFile)));
    }
    if (page.motionSkipped) skipped.motion = page.motionSkipped;
    if (page.skippedMovers > 0) {
      findings.push({
        check: 'motion',
        code: 'motion/not-sampled',
        severity: 'warning',
        message: `${page.skippedMovers} animated element${page.skippedMovers === 1 ? ' was' : 's were'} not sampled: the check captures at most ${maxSamples} frames.`,
        element: null,
        time: null,
        file: null,
        fix: 'Raise --samples to check them too.',
      });
    }
    if (!isTransparent(spec.format)) skipped.alpha = `${spec.format} has no alpha channel`;
    else if (page.motionSkipped?.startsWith('the page did not load')) skipped.alpha = page.motionSkipped;
    else {
      const alpha = await checkAlpha(spec, context);
      findings.push(...alpha.findings);
      if (alpha.skipped) skipped.alpha = alpha.skipped;
    }
  }

  const ordered = [...findings.filter((f) => f.severity === 'error'), ...findings.filter((f) => f.severity === 'warning')];
  const errors = ordered.filter((f) => f.severity === 'error').length;
  const warnings = ordered.length - errors;
  const checks = Object.fromEntries(
    CHECKS.map((check) => [
      check,
      skipped[check] ? ({ status: 'skipped', reason: skipped[check] } satisfies CheckStatus) : statusOf(ordered, check),
    ]),
  ) as CheckReport['checks'];
  return {
    version: 1,
    ok: errors === 0 && (!strict || warnings === 0),
    entry: displayPath(cwd, project.entryFile),
    format: spec.format,
    summary: { errors, warnings },
    checks,
    findings: ordered,
    sampledTimes: sampledTimes.map((t) => Math.round(t * 1000) / 1000),
    length,
    durationMs: Math.round(performance.now() - began),
  };
}

async function lintFindings(project: ProjectLocation, spec: RenderSpec, context: RenderContext, cwd: string): Promise<CheckFinding[]> {
  // A page that is not trusted may name files outside its project; lint must not read them.
  const sandboxed = (context.network ?? spec.network) === 'sandboxed';
  // The one preflight (lint's rules and the files the pages load), as lint, the studio and the render run it.
  const findings = await preflightProject(project.entryFile, preflightHost(project.root, { confined: sandboxed }));
  // A note (where a length comes from) is not a finding: the report's `length` says it.
  return findings.flatMap((finding) => {
    if (finding.severity === 'info') return [];
    const file = displayPath(cwd, finding.file);
    return {
      check: 'lint',
      code: `lint/${finding.rule}`,
      severity: finding.severity,
      message: finding.message,
      element: null,
      time: null,
      file: { path: file, line: finding.line, column: finding.column },
      fix: `Edit ${file}:${finding.line}:${finding.column} as the message says; \`seekframe lint\` lists the same.`,
    } satisfies CheckFinding;
  });
}

/** A root without data-duration whose page gives no length (an empty timeline, or under another id): the render fails. */
function emptyLengthFinding(metadata: CompositionMetadata, entry: string): CheckFinding {
  return {
    check: 'page',
    code: 'page/empty-composition',
    severity: 'error',
    message: `${emptyComposition(entry, metadata, 0).message} A render fails with empty-composition.`,
    element: null,
    time: null,
    file: { path: entry, line: 0, column: 0 },
    fix: `Register the composition's timeline under "${metadata.id}", or give the root data-duration (seconds).`,
  };
}

function variableFindings(metadata: CompositionMetadata, spec: RenderSpec, entry: string): CheckFinding[] {
  return checkVariables(metadata.variables, spec.variables, false, entry).map((issue) => ({
    check: 'lint',
    code: `variables/${issue.kind}`,
    severity: spec.strictVariables ? 'error' : 'warning',
    message: issue.message,
    element: null,
    time: null,
    file: { path: entry, line: 0, column: 0 },
    fix: `Fix the value of "${issue.id}" or its declaration in data-composition-variables.`,
    details: { id: issue.id, kind: issue.kind },
  }));
}

/**
 * Renders a few frames from the middle through the render's own path (plan, capture, encoder,
 * and the alpha check that runs before any transparent output is published) into the work folder.
 */
async function checkAlpha(spec: RenderSpec, context: RenderContext): Promise<{ findings: CheckFinding[]; skipped?: string }> {
  const cleanup = new CleanupStack();
  try {
    const { plan, session } = await planRenderSession(
      { ...spec, workers: 1 },
      { ...context, onEvent: () => undefined, problems: new ProblemLog() },
      cleanup,
      { keepPage: true, signal: context.signal },
    );
    const count = Math.min(plan.totalFrames, ALPHA_SAMPLE_FRAMES);
    const start = Math.max(0, Math.min(plan.totalFrames - count, Math.floor(plan.totalFrames / 2) - Math.floor(count / 2)));
    const target = path.join(
      session.workDir,
      plan.format === 'png-sequence' ? 'alpha-sample' : `alpha-sample${FORMAT_EXTENSIONS[plan.format]}`,
    );
    const result = await renderSessionFrames(
      plan,
      { start, end: start + count },
      { kind: 'output', path: target },
      session,
      context.signal ?? new AbortController().signal,
    );
    const time = { start: (start * plan.fps.den) / plan.fps.num, end: ((start + count) * plan.fps.den) / plan.fps.num };
    const verdict = result.alpha;
    if (verdict?.skipped) {
      return {
        findings: [
          {
            check: 'alpha',
            code: 'alpha/unchecked',
            severity: 'warning',
            message: `The alpha channel could not be checked: ${verdict.skipped}.`,
            element: null,
            time,
            file: null,
            fix: 'Install an ffmpeg built with libvpx (Debian: apt-get install ffmpeg).',
          },
        ],
      };
    }
    if (verdict?.opaqueSource) {
      return {
        findings: [
          {
            check: 'alpha',
            code: 'alpha/opaque',
            severity: 'warning',
            message: `You render ${plan.format}, which keeps transparency, but the page paints every pixel of the sampled frames: the video will be opaque.`,
            element: null,
            time,
            file: null,
            fix: 'Leave the background transparent (no background on html, body and the root; `background: transparent`) where the video should show through, or render mp4.',
            details: { samples: verdict.samples },
          },
        ],
      };
    }
    return { findings: [] };
  } catch (caught) {
    const error = toSeekframeError(caught, { code: 'render-failed' });
    if (error.code !== 'alpha-lost') return { findings: [], skipped: `the sample render failed (${error.code}): ${error.message}` };
    return {
      findings: [
        {
          check: 'alpha',
          code: 'alpha/lost',
          severity: 'error',
          message: error.message.replace(/ The output was not written\.$/, ''),
          element: null,
          time: typeof error.details?.time === 'number' ? { start: error.details.time, end: error.details.time } : null,
          file: null,
          fix: "A render fails the same way (alpha-lost): check that this ffmpeg's encoder writes alpha (`seekframe doctor`), or render png-sequence.",
          details: { ...(error.details ?? {}) },
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
