import { z } from 'zod';
import { OUTPUT_FORMATS } from '@seekframe/engine';
import { CHECK_RULES } from './check-rules.js';

export const CHECKS = ['lint', 'page', 'motion', 'layout', 'contrast', 'audio', 'alpha'] as const;
export type CheckName = (typeof CHECKS)[number];

const ElementSchema = z
  .object({
    label: z.string().describe('How messages name it: `<div#title>`, `[intro] <h1>` inside a sub-composition.'),
    selector: z.string().describe('A CSS selector that finds it in its own document (`#title`, `#stage > div.card:nth-of-type(2)`).'),
    hosts: z.array(z.string()).describe('Selectors of the sub-composition hosts above it, from the top document down; empty at top level.'),
  })
  .describe('The element the finding is about.');

const RegionSchema = z.object({
  time: z.number().describe('The sampled time, seconds.'),
  x: z.number().describe("Left edge in frame pixels (the composition's CSS pixels); may be outside the frame."),
  y: z.number().describe('Top edge in frame pixels.'),
  width: z.number(),
  height: z.number(),
});

const LocationSchema = z.object({
  path: z.string().describe('Project file, relative to the working folder.'),
  line: z.number().describe('1-based; 0 when unknown.'),
  column: z.number().describe('1-based; 0 when unknown.'),
});

export const CheckFindingSchema = z.object({
  check: z.enum(CHECKS).describe('Which check found it.'),
  code: z.string().describe(
    `Stable id, one of: ${Object.keys(CHECK_RULES)
      .map((code) => `\`${code}\``)
      .join(', ')}. What each means: [the checking guide](../guide/checking.md#what-each-finding-means).`,
  ),
  severity: z.enum(['error', 'warning']).describe('Errors fail the check (exit code 1); warnings only with `--strict`.'),
  message: z.string().describe('What is wrong, in one or two sentences that name the element and the time.'),
  element: ElementSchema.nullable().describe(
    'The element; null for a finding about a file (lint, a script error: see `file`) or the whole composition.',
  ),
  time: z
    .object({ start: z.number().describe('Seconds.'), end: z.number().describe('Seconds; equal to start for an instant.') })
    .nullable()
    .describe('Seconds of the composition the finding is about; null when it is not about a time.'),
  file: LocationSchema.nullable().describe(
    'Where in the project, when known (lint findings, script errors, a missing file with the document that used it).',
  ),
  fix: z.string().describe('What to change.'),
  region: RegionSchema.optional().describe(
    'Where it is in the frame, when it is somewhere: the box of the element (or the overlap) at one sampled time. The contact sheet (`--snapshot`) outlines it.',
  ),
  details: z.record(z.string(), z.unknown()).optional().describe('Machine-readable facts behind the message (sample times, boxes, codes).'),
});

export type CheckFinding = z.infer<typeof CheckFindingSchema>;

const CheckStatusSchema = z.object({
  status: z
    .enum(['passed', 'warnings', 'failed', 'skipped'])
    .describe('`failed`: at least one error; `warnings`: only warnings; `skipped`: did not run (see `reason`).'),
  reason: z.string().optional().describe('Why it was skipped.'),
});

const AudioReportSchema = z.object({
  target: z.number().describe('Integrated loudness the mix is compared with, LUFS (`--loudness-target`, default -14).'),
  mix: z
    .object({
      integrated: z
        .number()
        .nullable()
        .describe("Integrated loudness (EBU R128, ffmpeg's ebur128), LUFS; null when too short or silent to gate."),
      range: z.number().nullable().describe('Loudness range, LU.'),
      samplePeak: z.number().nullable().describe('Highest sample, dBFS; null for digital silence.'),
      truePeak: z.number().nullable().describe('Highest true (inter-sample) peak, dBTP.'),
    })
    .describe('The soundtrack as a render mixes and encodes it.'),
  clips: z
    .array(
      z.object({
        src: z.string().describe('The source, relative to the project when it is a project file.'),
        start: z.number().describe('Seconds into the composition.'),
        duration: z.number().describe('Seconds it plays.'),
        samplePeak: z.number().nullable().describe('Highest sample where it plays, after its volume, dBFS; null for digital silence.'),
        integrated: z.number().nullable().describe('Its own integrated loudness, LUFS.'),
      }),
    )
    .describe('Each audible clip, measured over the part that plays.'),
});

/**
 * The one JSON document `seekframe check --json` prints (and `checkComposition` returns).
 * Stable: fields are only ever added within a version. docs/reference/json-output.md is
 * generated from this schema.
 */
export const CheckReportSchema = z
  .object({
    version: z.literal(1).describe('Shape version; fields are only added within a version.'),
    ok: z.boolean().describe('No error findings (with `--strict`: no findings at all). The exit code is 0 exactly when this is true.'),
    entry: z.string().describe('The composition checked, relative to the working folder.'),
    format: z.enum(OUTPUT_FORMATS).describe('The output format checked for (`--format`); mov, webm and png-sequence add the alpha check.'),
    summary: z.object({
      errors: z.number().describe('Findings with severity error.'),
      warnings: z.number().describe('Findings with severity warning.'),
    }),
    checks: z
      .object({
        lint: CheckStatusSchema,
        page: CheckStatusSchema,
        motion: CheckStatusSchema,
        layout: CheckStatusSchema,
        contrast: CheckStatusSchema,
        audio: CheckStatusSchema,
        alpha: CheckStatusSchema,
      })
      .describe('Each check and how it ended.'),
    findings: z.array(CheckFindingSchema).describe('Errors first, then warnings; each in the order found.'),
    sampledTimes: z.array(z.number()).describe('Seconds at which the motion check captured a frame.'),
    length: z
      .object({
        seconds: z.number().describe("The composition's length in the page."),
        source: z
          .enum(['data-duration', 'timeline', 'animations'])
          .describe(
            "The root's `data-duration`; or, a root without one, the length of the timeline it registers in `window.__timelines`, else where its last CSS animation or Web Animation ends.",
          ),
        note: z.string().describe('The same in a sentence.'),
      })
      .nullable()
      .optional()
      .describe('How long the composition is and where that came from; null when the page did not load.'),
    audio: AudioReportSchema.optional().describe("The audio audit's measurements; absent when the composition declares no audible clip."),
    snapshot: z.string().optional().describe('The contact sheet `--snapshot` wrote (relative to the working folder).'),
    durationMs: z.number().describe('Wall time of the check.'),
  })
  .describe('The result of `seekframe check`.');

export type CheckReport = z.infer<typeof CheckReportSchema>;
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** A check's status from its findings. */
export function statusOf(findings: readonly CheckFinding[], check: CheckName): CheckStatus {
  const own = findings.filter((f) => f.check === check);
  if (own.some((f) => f.severity === 'error')) return { status: 'failed' };
  return { status: own.length > 0 ? 'warnings' : 'passed' };
}
