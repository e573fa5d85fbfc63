import { Option, type Command } from 'commander';
import { OUTPUT_FORMATS, SeekframeError } from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, reportError } from '../report-error.js';
import { invalidArgument, isUsageError } from '../usage-error.js';

/** The check ran and found nothing that fails it. */
export const CHECK_EXIT_CLEAN = EXIT_OK;
/** The check ran and found errors (or, with --strict, any finding). */
export const CHECK_EXIT_FINDINGS = EXIT_FAILURE;
/** The command line was wrong (unknown flag, bad value, no composition at the path). */
export const CHECK_EXIT_USAGE = EXIT_USAGE;
/** The check could not run here: no browser, no ffmpeg, a browser that would not start. */
export const CHECK_EXIT_NOT_RUN = 3;

const SAMPLES_MIN = 4;
const SAMPLES_MAX = 500;
/** --loudness-target bounds, LUFS: from film and broadcast (-31, -27, -23) to the loudest streaming masters. */
const LOUDNESS_MIN = -40;
const LOUDNESS_MAX = -5;

interface CheckFlags {
  format?: string;
  fps?: string;
  variables?: string;
  variablesFile?: string;
  strictVariables?: boolean;
  network?: string;
  captureMode?: string;
  samples?: string;
  strict?: boolean;
  json?: boolean;
  snapshot?: string;
  loudnessTarget?: string;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('check')
    .summary('one gate before a render: lint, page errors, motion, layout, contrast, audio, alpha')
    .description(
      'one gate before a render: lint, page errors and failed requests, motion on sampled frames, text layout and contrast, audio levels, and the alpha of transparent formats. ' +
        'Every finding names the element (or file), the time and the fix. Exit codes: 0 no errors (warnings allowed unless --strict), ' +
        '1 findings that are errors, 2 a usage error, 3 the check could not run here (no browser or ffmpeg: see seekframe doctor)',
    )
    .argument('[dir]', 'project folder (uses its index.html) or HTML file', '.')
    .addOption(
      new Option(
        '-f, --format <format>',
        'the format you will render; mov, webm and png-sequence add the alpha check on a short sample render (default mp4)',
      ).choices([...OUTPUT_FORMATS]),
    )
    .option('--fps <rate>', 'frames per second the motion check samples at (default: data-fps or 30)')
    .option('--variables <json>', 'JSON object of composition variables, e.g. \'{"title":"Hi"}\'')
    .option('--variables-file <path>', 'JSON file with composition variables; excludes --variables')
    .option('--strict-variables', 'undeclared or mistyped variables are errors, not warnings')
    .option('--network <mode>', 'open (default) or sandboxed, as for render')
    .option(
      '--capture-mode <mode>',
      'auto, canvas, beginframe or screenshot, as for render (default auto: beginframe or screenshot; check looks at the page as it is)',
    )
    .option('--samples <n>', `most frames the motion check captures, ${SAMPLES_MIN}-${SAMPLES_MAX} (default 60)`)
    .option('--snapshot <dir>', 'write contact-sheet.png into <dir>: the sampled frames with each finding outlined and named')
    .option(
      '--loudness-target <lufs>',
      `integrated loudness (LUFS) the audio audit compares the mix with, ${LOUDNESS_MIN} to ${LOUDNESS_MAX}; streaming services play at about -14 (default -14)`,
    )
    .option('--strict', 'warnings fail the check too (exit 1)')
    .option('--json', 'print the report as one JSON document (the shape is in the docs: JSON output)')
    .action(async (dir: string, flags: CheckFlags) => {
      try {
        const { checkComposition, parseRenderSpec } = await import('@seekframe/producer');
        const { flagName, renderFlagsToOptions } = await import('./render-flags.js');
        const samples = samplesFlag(flags.samples);
        const loudnessTarget = loudnessFlag(flags.loudnessTarget);
        const options = await renderFlagsToOptions(dir, { ...flags, quiet: true }, ctx.cwd);
        // Validated here so a bad value names the flag the user typed (exit 2).
        parseRenderSpec(options, undefined, flagName);
        const { findBrowser } = await import('@seekframe/engine');
        // The CLI's environment (SEEKFRAME_BROWSER) picks the browser, as `seekframe doctor` reports it.
        const report = await checkComposition(
          {
            ...options,
            ...(samples ? { maxSamples: samples } : {}),
            ...(loudnessTarget !== undefined ? { loudnessTarget } : {}),
            ...(flags.snapshot !== undefined ? { snapshot: flags.snapshot } : {}),
            strict: Boolean(flags.strict),
            cwd: ctx.cwd,
          },
          { browser: () => findBrowser({ env: ctx.env }) },
        );
        if (flags.json) ctx.printJson(report);
        else {
          const { formatCheckReport } = await import('../check/format-check-report.js');
          for (const line of formatCheckReport(report, ctx.colors)) ctx.print(line);
        }
        ctx.exitCode = report.ok ? CHECK_EXIT_CLEAN : CHECK_EXIT_FINDINGS;
      } catch (error) {
        if (isUsageError(error)) throw error;
        // No composition at the path is a wrong argument, as for every command (exit 2).
        if (error instanceof SeekframeError && error.code === 'entry-not-found') throw invalidArgument('dir', error.message);
        // Not the composition's fault: the environment. reportError prints it (JSON with --json).
        reportError(error, ctx, Boolean(flags.json));
        ctx.exitCode = CHECK_EXIT_NOT_RUN;
      }
    });
}

function samplesFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\s*\d+\s*$/.test(value) || n < SAMPLES_MIN || n > SAMPLES_MAX) {
    throw invalidArgument('--samples', `--samples must be a whole number from ${SAMPLES_MIN} to ${SAMPLES_MAX}, got "${value}"`);
  }
  return n;
}

function loudnessFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || n < LOUDNESS_MIN || n > LOUDNESS_MAX) {
    throw invalidArgument(
      '--loudness-target',
      `--loudness-target must be a number of LUFS from ${LOUDNESS_MIN} to ${LOUDNESS_MAX} (e.g. -14 for streaming, -23 for broadcast), got "${value}"`,
    );
  }
  return n;
}
