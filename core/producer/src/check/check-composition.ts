import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { extractCompositionMetadata, preflightProject, toSeekframeError, type CompositionMetadata } from '@seekframe/composition';
import { checkVariables } from '../plan/check-variables.js';
import { fpsFromNumber } from '../plan/frame-timing.js';
import { parseRenderSpec, type RenderSpec, type RenderSpecInput } from '../plan/render-spec.js';
import { describeLength, emptyComposition } from '../render/composition-length.js';
import { isTransparent } from '../render/plan-render.js';
import type { RenderContext } from '../render/render-context.js';
import { displayPath } from '../serve/display-path.js';
import { preflightHost } from '../serve/preflight-host.js';
import { resolveProject, type ProjectLocation } from '../serve/resolve-project.js';
import { CHECKS, statusOf, type CheckFinding, type CheckName, type CheckReport, type CheckStatus } from './check-report.js';
import { checkAlpha } from './alpha-check.js';
import { DEFAULT_LOUDNESS_TARGET } from './audio-audit.js';
import { writeContactSheet } from './contact-sheet.js';
import { inspectPage, type PageInspection } from './inspect-page.js';
import { contextFfmpeg } from '../render/render-context.js';
import { tempFolderPrefix } from '@seekframe/engine';

/** Frames the motion check captures at most, by default. */
export const DEFAULT_MAX_SAMPLES = 60;

export type CheckInput = RenderSpecInput & {
  /** Most frames the motion check captures (default 60). */
  maxSamples?: number;
  /** Warnings count as errors for `ok`. */
  strict?: boolean;
  /** Paths in findings are relative to this folder (default: the process's). */
  cwd?: string;
  /** Write the contact sheet (`contact-sheet.png`) into this folder (created if missing). */
  snapshot?: string;
  /** Integrated loudness the audio audit compares the mix with, LUFS (default -14). */
  loudnessTarget?: number;
};

/**
 * `seekframe check`: one gate before a render. Lint (with variables), the page loaded the way a
 * render loads it (script errors, missing files, failed requests, runtime warnings), the motion
 * check on sampled frames (what the timeline says moves must move on screen, clips must be inside
 * the frame, the video must not be blank), the layout and contrast audits of the text at those
 * frames, the audio audit (each clip and the mix, EBU R128) and, for mov, webm and png-sequence,
 * the decode-level alpha check on a short sample render through the render's own path. Errors
 * only where the video is certainly wrong (check-rules.ts). Problems with the composition are
 * findings; only a broken environment (no browser, no ffmpeg) or bad options throw. With
 * `snapshot`, the sampled frames are kept on disk and composed into the contact sheet.
 */
export async function checkComposition(input: CheckInput, context: RenderContext = {}): Promise<CheckReport> {
  const began = performance.now();
  const {
    maxSamples = DEFAULT_MAX_SAMPLES,
    cwd = process.cwd(),
    strict = false,
    snapshot,
    loudnessTarget = DEFAULT_LOUDNESS_TARGET,
    ...rest
  } = input;
  const spec = parseRenderSpec(rest);
  const project = await resolveProject(spec.projectDir, cwd);
  const findings: CheckFinding[] = [];
  const skipped: Partial<Record<CheckName, string>> = {};

  findings.push(...(await lintFindings(project, spec, context, cwd)));
  let metadata: CompositionMetadata | undefined;
  try {
    metadata = extractCompositionMetadata(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
  } catch (caught) {
    // Said once in the findings (lint names each problem); a status only points at it.
    const message = toSeekframeError(caught, { code: 'invalid-composition' })
      .message.split(`${path.dirname(project.entryFile)}${path.sep}`)
      .join('');
    const why = findings.some((f) => f.check === 'lint' && f.severity === 'error')
      ? 'the composition cannot be read: see the lint errors'
      : `the composition cannot be read (${message.split('\n')[0]})`;
    for (const check of ['page', 'motion', 'layout', 'contrast', 'audio', 'alpha'] as const) skipped[check] = why;
  }

  let sampledTimes: number[] = [];
  let page: PageInspection | undefined;
  let length: CheckReport['length'] = null;
  // The sampled frames, kept on disk for the contact sheet.
  const frames = new Map<number, string>();
  const framesDir = snapshot !== undefined ? await mkdtemp(tempFolderPrefix('render')) : undefined;
  try {
    if (metadata) {
      findings.push(...variableFindings(metadata, spec, displayPath(cwd, project.entryFile)));
      const fps = spec.fps ?? (metadata.fps ? fpsFromNumber(metadata.fps) : { num: 30, den: 1 });
      page = await inspectPage(spec, project, metadata, fps, context, {
        maxSamples,
        cwd,
        loudnessTarget,
        ...(framesDir
          ? {
              onFrame: async (t: number, frame: Buffer) => {
                const name = `frame-${frames.size}.png`;
                await writeFile(path.join(framesDir, name), frame);
                frames.set(t, name);
              },
            }
          : {}),
      });
      findings.push(...page.findings);
      sampledTimes = page.sampledTimes;
      if (page.duration !== undefined) {
        length = describeLength(metadata, page.duration);
        if (length.seconds <= 0) findings.push(emptyLengthFinding(metadata, displayPath(cwd, project.entryFile)));
      }
      Object.assign(skipped, page.skipped);
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

    const report = summarise(findings, skipped, {
      strict,
      entry: displayPath(cwd, project.entryFile),
      format: spec.format,
      sampledTimes,
      length,
      ...(page?.audio ? { audio: page.audio } : {}),
    });
    if (framesDir && snapshot !== undefined && metadata && frames.size > 0) {
      await mkdir(path.resolve(cwd, snapshot), { recursive: true });
      const sheet = await writeContactSheet({
        report,
        frames,
        dir: framesDir,
        size: metadata,
        output: path.resolve(cwd, snapshot, 'contact-sheet.png'),
        ffmpeg: (await contextFfmpeg(context)).ffmpeg,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      report.snapshot = displayPath(cwd, sheet);
    }
    report.durationMs = Math.round(performance.now() - began);
    return report;
  } finally {
    if (framesDir) await rm(framesDir, { recursive: true, force: true });
  }
}

/** The report from the findings: errors first, each check's status, `ok` (with `strict`, warnings fail too). */
function summarise(
  findings: readonly CheckFinding[],
  skipped: Partial<Record<CheckName, string>>,
  facts: Pick<CheckReport, 'entry' | 'format' | 'sampledTimes' | 'length' | 'audio'> & { strict: boolean },
): CheckReport {
  const { strict, sampledTimes, ...rest } = facts;
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
    entry: rest.entry,
    format: rest.format,
    summary: { errors, warnings },
    checks,
    findings: ordered,
    sampledTimes: sampledTimes.map((t) => Math.round(t * 1000) / 1000),
    length: rest.length ?? null,
    ...(rest.audio ? { audio: rest.audio } : {}),
    durationMs: 0,
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
