import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  expandOutputTemplate,
  extractCompositionMetadata,
  batchRowsFromCsv,
  planBatch,
  SeekframeError,
  toSeekframeError,
  type PlannedRow,
} from '@seekframe/composition';
import { createBrowserPool, findBrowser, sweepStaleTemps } from '@seekframe/engine';
import { defaultFps, frameCount } from '../plan/frame-timing.js';
import { parseRenderOptions } from '../plan/parse-render-options.js';
import { renderComposition } from '../render/render-composition.js';
import type { RenderContext } from '../render/render-context.js';
import type { BatchCounts, BatchEvent, BatchEventListener, RenderEvent } from '../render/render-events.js';
import { resolveProject } from '../serve/resolve-project.js';
import {
  countRows,
  createManifestWriter,
  manifestFolder,
  readManifest,
  sweepManifestTemps,
  type Manifest,
  type ManifestRow,
} from './batch-manifest.js';
import { defaultBatchOutputTemplate, parseBatchOptions, type BatchOptionsInput } from './batch-options.js';
import { workersPerRow } from './batch-workers.js';
import { resumableRow } from './resume-rows.js';

export interface BatchResult {
  /** Absolute path of manifest.json. */
  manifest: string;
  counts: BatchCounts;
  cancelled: boolean;
  rows: ManifestRow[];
}

/**
 * Renders every row of a batch with `renderComposition`: the whole batch is planned and checked
 * first (one `invalid-batch` error, nothing rendered), then up to `concurrency` rows run at once.
 * A failed row does not stop the others unless `failFast`; an abort cancels running rows and skips
 * the rest. manifest.json follows every change. Resolves with the counts (check `failed`); rejects
 * only when the batch could not run at all.
 */
export async function renderBatch(
  input: BatchOptionsInput,
  onEvent?: BatchEventListener,
  context: Omit<RenderContext, 'onEvent' | 'signal' | 'problems' | 'workDir'> = {},
): Promise<BatchResult> {
  const startedAt = Date.now();
  const emit = guardListener(onEvent);
  try {
    const { options, cwd, render, project, metadata, template, planned, captionFiles, folder, manifestPath } = await planBatchRun(input);
    // A batch killed hard (SIGKILL, power loss) left partial outputs and temp folders that no exit
    // handler removed. An encoder's start sweeps them, but a resume with nothing left to render
    // starts none: the batch sweeps its output folders (and the temp folder) itself, first.
    for (const outputFolder of new Set(planned.map((row) => path.dirname(row.output)))) await sweepStaleTemps(outputFolder);
    await sweepManifestTemps(folder);
    const previous = options.resume ? await readManifest(manifestPath) : undefined;
    const rows = await initialRows(previous, planned, folder);
    const queue = planned.filter((row) => rows[row.index]!.status === 'pending');
    const concurrency = Math.max(1, Math.min(options.concurrency, queue.length));
    const fps = render.fps ?? defaultFps(metadata.fps);
    const workers = workersPerRow(render.workers, concurrency, frameCount(metadata.duration, fps), context.tuning?.workers);

    const header: ManifestHeader = {
      composition: project.entryFile,
      batchFile: options.batchFile ? path.resolve(cwd, options.batchFile) : null,
      outputTemplate: template,
      createdAt: new Date(startedAt).toISOString(),
    };
    const writer = createManifestWriter(manifestPath);
    const snapshot = (status: Manifest['status']): Manifest => manifestSnapshot(header, status, rows);
    const save = (): void => void writer.write(snapshot('running'));

    emit({ type: 'batch-start', total: rows.length, concurrency, workersPerRow: workers, manifest: manifestPath });
    if (options.resume && !previous) {
      emit({
        type: 'warning',
        code: 'batch/nothing-to-resume',
        message: `No readable ${manifestPath} to resume from; every row renders.`,
        details: { manifest: manifestPath },
      });
    }
    save();
    for (const row of rows) {
      if (row.resumed)
        emit({
          type: 'batch-row-complete',
          row: row.index,
          output: planned[row.index]!.output,
          size: row.size,
          durationMs: row.renderTimeMs,
          videoDuration: row.videoDuration,
          resumed: true,
        });
    }

    const signal = options.signal;
    // Rows lease warm browsers (a fresh isolated context each) instead of starting their own: a
    // browser start is most of a short row's fixed cost. The host's pool when it passed one.
    const ownPool = context.browsers ? undefined : createBrowserPool({ maxBrowsers: concurrency * workers });
    // Found once for the whole batch: findBrowser asks the binary its version (~50 ms a row).
    const browser = context.browser ?? (await findBrowser());
    const rowContext = { ...context, browser, ...(ownPool ? { browsers: ownPool } : {}) };
    let firstFailure: number | undefined;
    const stopped = (): boolean => Boolean(signal?.aborted) || (options.failFast && firstFailure !== undefined);

    const runRow = async (plan: PlannedRow): Promise<void> => {
      const entry = rows[plan.index]!;
      const rowStart = Date.now();
      Object.assign(entry, { status: 'running', startedAt: new Date(rowStart).toISOString() });
      save();
      emit({ type: 'batch-row-start', row: plan.index, output: plan.output, variables: plan.variables });
      const forward = rowEvents(emit, plan.index);
      try {
        const captions = captionFiles?.[plan.index];
        const result = await renderComposition(
          {
            ...render,
            variables: plan.variables,
            output: plan.output,
            workers,
            ...(captions ? { captions } : {}),
            ...(signal ? { signal } : {}),
          },
          forward,
          rowContext,
        );
        Object.assign(entry, completedRow(result));
        save();
        emit({
          type: 'batch-row-complete',
          row: plan.index,
          output: result.output,
          size: result.size,
          durationMs: result.durationMs,
          videoDuration: result.videoDuration,
          resumed: false,
        });
      } catch (caught) {
        const error = toSeekframeError(caught, { code: 'render-failed' });
        firstFailure ??= plan.index;
        Object.assign(entry, failedRow(error, rowStart));
        save();
        emit({ type: 'batch-row-failed', row: plan.index, output: plan.output, error: error.toJSON() });
      }
    };

    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < queue.length && !stopped()) await runRow(queue[next++]!);
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, lane));
    } finally {
      await ownPool?.close();
    }

    const cancelled = Boolean(signal?.aborted);
    for (const plan of queue.slice(next)) {
      const entry = rows[plan.index]!;
      Object.assign(entry, { status: 'skipped', error: skippedError(cancelled, firstFailure) });
      emit({ type: 'batch-row-skipped', row: plan.index, output: plan.output, reason: cancelled ? 'cancelled' : 'fail-fast' });
    }
    const counts = countRows(rows);
    void writer.write(snapshot(cancelled ? 'cancelled' : counts.failed > 0 || counts.skipped > 0 ? 'failed' : 'completed'));
    await writer.flush().catch((error: unknown) => {
      throw manifestWriteError(manifestPath, error);
    });
    const { pending: _pending, running: _running, ...batchCounts } = counts;
    emit({ type: 'batch-complete', counts: batchCounts, manifest: manifestPath, durationMs: Date.now() - startedAt, cancelled });
    return { manifest: manifestPath, counts: batchCounts, cancelled, rows };
  } catch (caught) {
    const error = toSeekframeError(caught, { code: 'batch-failed' });
    emit({ type: 'error', error: error.toJSON() });
    throw error;
  }
}

/** The listener as a function that never throws: a listener's bug must not break the batch. */
function guardListener(onEvent: BatchEventListener | undefined): (event: BatchEvent) => void {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // A listener's bug must not break the batch.
    }
  };
}

/** A row's render events for the batch: complete/error become batch-row-complete/-failed in renderBatch; the rest gain the row index. */
function rowEvents(emit: (event: BatchEvent) => void, row: number): (event: RenderEvent) => void {
  return (event) => {
    if (event.type === 'stage' || event.type === 'progress' || event.type === 'warning') emit({ ...event, row });
  };
}

function completedRow(result: { durationMs: number; videoDuration: number; size: number }): Partial<ManifestRow> {
  return {
    status: 'completed',
    finishedAt: new Date().toISOString(),
    renderTimeMs: result.durationMs,
    videoDuration: result.videoDuration,
    size: result.size,
  };
}

function failedRow(error: SeekframeError, rowStart: number): Partial<ManifestRow> {
  return {
    status: 'failed',
    finishedAt: new Date().toISOString(),
    renderTimeMs: Date.now() - rowStart,
    error: { code: error.code, message: error.message, stage: error.stage ?? null },
  };
}

/** Everything a batch decides before it renders: options, project, the planned rows and where the manifest goes. */
async function planBatchRun(input: BatchOptionsInput) {
  const options = parseBatchOptions(input);
  const cwd = options.cwd ?? process.cwd();
  const projectDir =
    typeof options.render.projectDir === 'string' ? path.resolve(cwd, options.render.projectDir) : options.render.projectDir;
  const render = parseRenderOptions({ ...options.render, projectDir, ...(options.output ? { output: options.output } : {}) });
  if (render.variables !== undefined) {
    throw new SeekframeError(
      'invalid-options',
      'variables and batch rows exclude each other: each row is the variables of one render; move the values into the rows.',
      {
        stage: 'config',
        details: { field: 'variables' },
      },
    );
  }
  const project = await resolveProject(render.projectDir, cwd);
  const metadata = extractCompositionMetadata(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
  const template = options.output ?? defaultBatchOutputTemplate(render.projectDir, render.format, cwd);
  const planned = planBatch({
    // CSV cells are text: each takes its variable's type before the rows are checked.
    batch:
      options.batchFormat === 'csv' && Array.isArray(options.batch)
        ? batchRowsFromCsv(options.batch as Array<Record<string, string>>, metadata.variables)
        : options.batch,
    outputTemplate: template,
    resolveOutput: (output) => path.resolve(cwd, output),
    declarations: metadata.variables,
    strictVariables: render.strictVariables,
    source: options.batchFile ?? 'the batch',
  });
  const captionFiles = batchCaptionFiles(render.captions, planned, cwd);
  const folder = manifestFolder(planned.map((row) => row.output));
  const manifestPath = path.join(folder, 'manifest.json');
  const clash = planned.find((row) => row.output === manifestPath);
  if (clash) {
    throw new SeekframeError(
      'invalid-batch',
      `Row ${clash.index} would write ${manifestPath}, where the batch keeps its manifest; change --output.`,
      {
        stage: 'config',
        details: { problems: [{ index: clash.index, reason: 'output is the manifest path' }] },
      },
    );
  }
  return { options, cwd, render, project, metadata, template, planned, captionFiles, folder, manifestPath };
}

/** The manifest's rows before anything renders: a row the previous run finished is kept (resumed), the rest pending. */
async function initialRows(previous: Manifest | undefined, planned: readonly PlannedRow[], folder: string): Promise<ManifestRow[]> {
  const relative = (row: PlannedRow): string => path.relative(folder, row.output).split(path.sep).join('/');
  const rows: ManifestRow[] = [];
  for (const row of planned) {
    const kept = await resumableRow(previous, row, relative(row), folder);
    rows.push(
      kept
        ? { ...kept, resumed: true }
        : {
            index: row.index,
            status: 'pending',
            output: relative(row),
            variables: row.variables,
            startedAt: null,
            finishedAt: null,
            renderTimeMs: null,
            videoDuration: null,
            size: null,
            resumed: false,
            error: null,
          },
    );
  }
  return rows;
}

type ManifestHeader = Pick<Manifest, 'composition' | 'batchFile' | 'outputTemplate' | 'createdAt'>;

function manifestSnapshot(header: ManifestHeader, status: Manifest['status'], rows: ManifestRow[]): Manifest {
  return { version: 1, status, ...header, updatedAt: new Date().toISOString(), counts: countRows(rows), rows };
}

/** Why a row that never started was skipped. */
function skippedError(cancelled: boolean, firstFailure: number | undefined): NonNullable<ManifestRow['error']> {
  return cancelled
    ? { code: 'render-cancelled', message: 'Not started: the batch was cancelled.', stage: null }
    : {
        code: 'batch-fail-fast',
        message: `Not started: row ${firstFailure} failed and --batch-fail-fast starts no new rows.`,
        stage: null,
      };
}

function manifestWriteError(manifestPath: string, error: unknown): SeekframeError {
  return new SeekframeError(
    'output-write-failed',
    `Cannot write ${manifestPath} (${error instanceof Error ? error.message : String(error)}); check that the folder is writable.`,
    {
      stage: 'output',
      details: { file: manifestPath },
      cause: error,
    },
  );
}

/**
 * `--captions` in a batch is a template like `--output` (`subs/{index}.srt`): each row writes the
 * captions of its own transcript. A template that gives two rows one file is refused up front.
 */
function batchCaptionFiles(template: string | undefined, rows: readonly PlannedRow[], cwd: string): Record<number, string> | undefined {
  if (template === undefined) return undefined;
  const files: Record<number, string> = {};
  const owners = new Map<string, number>();
  for (const row of rows) {
    const { output, missing } = expandOutputTemplate(template, row.variables, row.index);
    const file = path.resolve(cwd, output);
    const owner = owners.get(file);
    if (missing.length > 0 || owner !== undefined) {
      const why =
        missing.length > 0
          ? `row ${row.index} has no "${missing[0]}" for its {${missing[0]}} placeholder`
          : `rows ${owner} and ${row.index} would both write ${file}`;
      throw new SeekframeError(
        'invalid-options',
        `--captions ${template}: ${why}. In a batch --captions is a template like --output; put {index} (or a key every row has) in it, e.g. subs/{index}.srt.`,
        {
          stage: 'config',
          details: { field: 'captions' },
        },
      );
    }
    owners.set(file, row.index);
    files[row.index] = file;
  }
  return files;
}
