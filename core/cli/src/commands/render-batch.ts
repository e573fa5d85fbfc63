import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import type { CliContext } from '../cli-context.js';
import { EXIT_FAILURE } from '../report-error.js';
import { flagError, flagName, integerFlag, readFlagFile, renderFlagsToOptions, type RenderFlags } from './render-flags.js';
import { createBatchReporter } from './render-batch-progress.js';
import { cleanUpOnForcedStop, unlessStopped } from './render-stops.js';

const BATCH_ONLY = ['batchConcurrency', 'batchFailFast', 'batchResume'] as const;

/** True when this is a batch render; batch-only flags without --batch are an error naming them. */
export function checkBatchFlags(flags: RenderFlags): boolean {
  if (flags.batch !== undefined) {
    if (flags.variables !== undefined || flags.variablesFile !== undefined) {
      throw flagError(
        '--batch',
        'and --variables/--variables-file exclude each other: each row holds the variables of one render; put the values in the rows',
      );
    }
    return true;
  }
  const stray = BATCH_ONLY.filter((key) => flags[key] !== undefined).map(flagName);
  if (stray.length > 0) throw flagError(stray[0]!, `only applies with --batch <file>; add --batch or drop ${stray.join(', ')}`);
  return false;
}

/** `--batch-concurrency` -> the batch option it sets, so errors name the flag the user typed. */
function batchFlagName(field: string): string {
  const top = field.split('.')[0] ?? field;
  if (top === 'concurrency' || top === 'failFast' || top === 'resume') return flagName(`batch${top[0]!.toUpperCase()}${top.slice(1)}`);
  if (top === 'render') return flagName(field.split('.')[1] ?? 'render');
  return flagName(top);
}

/** A `.csv` batch: one row per line after the header, every cell text (the producer gives each its declared type). */
function readCsvBatch(text: string, shown: string): Array<Record<string, string>> {
  try {
    return parseCsv(text, { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  } catch (error) {
    const line = error instanceof CsvError ? (error as CsvError & { lines?: number }).lines : undefined;
    throw new SeekframeError(
      'invalid-batch',
      `${shown} is not valid CSV${line ? ` (line ${line})` : ''}: ${error instanceof Error ? error.message : String(error)}; nothing was rendered. Give a header row of variable ids, then one row per render (quote a cell that holds a comma: "Hello, world").`,
      { stage: 'config', details: { source: shown, problems: [{ index: null, reason: 'not valid CSV' }] } },
    );
  }
}

async function readBatchFile(file: string, shown: string): Promise<{ batch: unknown; batchFormat: 'json' | 'csv' }> {
  const text = await readFlagFile('--batch', file);
  if (path.extname(file).toLowerCase() === '.csv') return { batch: readCsvBatch(text, shown), batchFormat: 'csv' };
  return { batch: parseJsonBatch(text, shown), batchFormat: 'json' };
}

function parseJsonBatch(text: string, shown: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeekframeError(
      'invalid-batch',
      `${shown} is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing was rendered. Give an array of rows like [{"title":"A"},{"title":"B"}].`,
      {
        stage: 'config',
        details: { source: shown, problems: [{ index: null, reason: 'not valid JSON' }] },
      },
    );
  }
}

/** `render --batch`: one render per row through the producer's renderBatch. Exit 1 if any row failed or was skipped. */
export async function renderBatchCommand(dir: string, flags: RenderFlags, ctx: CliContext): Promise<void> {
  const { parseBatchOptions, parseRenderOptions, renderBatch } = await unlessStopped(import('@seekframe/producer'), ctx.stops.signal);
  const json = Boolean(flags.json);
  const shown = flags.batch!;
  const { batch, batchFormat } = await readBatchFile(path.resolve(ctx.cwd, shown), shown);
  const { output: _single, ...render } = await renderFlagsToOptions(dir, flags, ctx.cwd);
  // Shared flags fail here with their flag names, before the batch is planned.
  parseRenderOptions({ ...render, ...(flags.output ? { output: flags.output } : {}) }, flagName);
  const options = parseBatchOptions(
    {
      render,
      batch,
      batchFormat,
      batchFile: shown,
      ...(flags.output ? { output: flags.output } : {}),
      ...(flags.batchConcurrency === undefined ? {} : { concurrency: integerFlag('--batch-concurrency', flags.batchConcurrency) }),
      failFast: Boolean(flags.batchFailFast),
      resume: Boolean(flags.batchResume),
      cwd: ctx.cwd,
    },
    batchFlagName,
  );
  const reporter = createBatchReporter(ctx, { json, quiet: Boolean(flags.quiet) });
  await cleanUpOnForcedStop(ctx, json);
  // The benchmark's saved speed settings, read once here and passed to every row's render.
  const { savedRenderTuning } = await import('@seekframe/engine');
  // Ctrl-C or SIGTERM cancels the running rows and skips the rest (see renderBatch).
  const result = await renderBatch({ ...options, signal: ctx.stops.signal }, reporter.onEvent, {
    tuning: savedRenderTuning(ctx.env),
  }).catch((error: unknown) => {
    // --json: the error already went out as an event line; keep stdout pure JSON lines.
    if (!json) throw error;
    ctx.exitCode = EXIT_FAILURE;
    return null;
  });
  if (result && (result.cancelled || result.counts.failed > 0 || result.counts.skipped > 0)) ctx.exitCode = EXIT_FAILURE;
}
