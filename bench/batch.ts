/**
 * What a batch row costs besides its frames, with and without the warm browser pool: rows per
 * minute and the fixed cost per row for 1, 10 and 50 rows.
 *
 *   fixed cost of a row = row wall time - its frames / its own steady frame rate
 *
 * where the steady rate is read from the row's progress events between its first and last frame
 * (so it excludes start-up, and a row's fixed cost is everything that is not frames: planning,
 * the project server, browser start or lease, page load, ffmpeg start and finish). Rows below
 * --tiny-from render the 1280x720, 4 s starter composition (`seekframe init`); from --tiny-from
 * rows on, a 160x90, 1 s composition (50 starter rows would take most of an hour on 2 cores).
 *
 *   npx tsx bench/batch.ts                         # rows 1,10,50; warm pool and cold, one after the other
 *   npx tsx bench/batch.ts --rows 10 --pool warm   # warm | cold | both
 *   npx tsx bench/batch.ts --json
 *
 * "cold" passes a pool that keeps no browser (maxBrowsers 0): every row launches its own browsers
 * and closes them, as renders did before the pool (plus one browser-context call per row).
 * Uses the built packages (run `npx turbo run build` first). Nothing is asserted: a measurement.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBrowserPool } from '@seekframe/engine';
import { renderBatch, type BatchEvent } from '@seekframe/producer';
import { ROW_COMPOSITION as TINY } from './row-composition.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const rowCounts = (arg('--rows') ?? '1,10,50').split(',').map(Number);
const tinyFrom = Number(arg('--tiny-from') ?? 50);
const poolModes = (arg('--pool') ?? 'both') === 'both' ? ['warm', 'cold'] : [arg('--pool')!];
const json = process.argv.includes('--json');
const log = (line: string): void => void (json ? undefined : console.error(line));

interface RowTiming {
  wallMs: number;
  frames: number;
  fixedMs: number;
}

async function runBatch(
  rows: number,
  mode: string,
  dir: string,
  label = '',
): Promise<{
  rows: number;
  mode: string;
  composition: string;
  wallSeconds: number;
  rowsPerMinute: number;
  fixedMsPerRow: number;
  fixedMsPerRowMedian: number;
  framesPerRow: number;
}> {
  const tiny = rows >= tinyFrom || label !== '';
  const project = join(dir, tiny ? 'tiny' : 'starter');
  const pool = createBrowserPool(mode === 'warm' ? { maxBrowsers: 2 } : { maxBrowsers: 0 });
  const starts = new Map<number, number>();
  const progress = new Map<number, Array<{ t: number; frames: number }>>();
  const timings: RowTiming[] = [];
  const onEvent = (event: BatchEvent): void => {
    const now = performance.now();
    if (event.type === 'batch-row-start') starts.set(event.row, now);
    // --stages: when each stage of a row starts, in ms after the row (where the fixed cost goes).
    if (process.argv.includes('--stages') && (event.type === 'stage' || event.type === 'batch-row-complete') && 'row' in event) {
      log(`    row ${event.row} ${event.type === 'stage' ? event.stage : 'complete'} +${(now - starts.get(event.row)!).toFixed(0)} ms`);
    }
    if (
      process.argv.includes('--stages') &&
      event.type === 'progress' &&
      'row' in event &&
      (event.framesRendered === 1 || event.framesRendered === event.totalFrames)
    ) {
      log(`    row ${event.row} frame ${event.framesRendered} +${(now - starts.get(event.row)!).toFixed(0)} ms`);
    }
    if (event.type === 'progress' && 'row' in event && event.stage === 'capture') {
      const list = progress.get(event.row) ?? [];
      list.push({ t: now, frames: event.framesRendered });
      progress.set(event.row, list);
    }
    if (event.type === 'batch-row-complete' && !event.resumed) {
      const list = progress.get(event.row) ?? [];
      const first = list[0];
      const last = list.at(-1);
      const wallMs = now - starts.get(event.row)!;
      const frames = last?.frames ?? 0;
      const perFrame = first && last && last.frames > first.frames ? (last.t - first.t) / (last.frames - first.frames) : 0;
      timings.push({ wallMs, frames, fixedMs: wallMs - frames * perFrame });
    }
    if (event.type === 'batch-row-failed') throw new Error(`row ${event.row} failed: ${event.error.message}`);
  };
  const start = performance.now();
  try {
    const result = await renderBatch(
      {
        render: { projectDir: project, workers: 1, quality: 'draft' },
        batch: Array.from({ length: rows }, (_, i) => ({ title: `Row ${i}` })),
        output: join(dir, `out-${mode}-${rows}${label}`, '{index}.mp4'),
      },
      onEvent,
      { browsers: pool },
    );
    if (result.counts.failed > 0) throw new Error(`${result.counts.failed} row(s) failed`);
  } finally {
    await pool.close();
  }
  const wallSeconds = (performance.now() - start) / 1000;
  const fixed = timings.map((row) => row.fixedMs).sort((a, b) => a - b);
  return {
    rows,
    mode,
    composition: tiny ? '160x90 1 s' : 'starter 1280x720 4 s',
    wallSeconds,
    rowsPerMinute: (rows / wallSeconds) * 60,
    fixedMsPerRow: fixed.reduce((a, b) => a + b, 0) / fixed.length,
    fixedMsPerRowMedian: fixed[fixed.length >> 1]!,
    framesPerRow: timings[0]?.frames ?? 0,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'seekframe-batch-bench-'));
try {
  const starter = readFileSync(join(repoRoot, 'core/cli/templates/starter/index.html'), 'utf8').replaceAll('{{name}}', 'bench');
  for (const [name, html] of [
    ['starter', starter],
    ['tiny', TINY],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'index.html'), html);
  }
  // One throw-away row first: this process's one-time costs (module loading, JIT, the ffmpeg
  // lookup) would otherwise land on whichever configuration runs first.
  log('warm-up row (not counted)');
  await runBatch(1, 'cold', dir, 'warm-up');
  const results = [];
  for (const rows of rowCounts) {
    for (const mode of poolModes) {
      log(`${rows} row(s), ${mode} pool (load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
      const row = await runBatch(rows, mode, dir);
      log(
        `  ${row.rowsPerMinute.toFixed(1)} rows/min, fixed ${row.fixedMsPerRow.toFixed(0)} ms/row (median ${row.fixedMsPerRowMedian.toFixed(0)})`,
      );
      results.push({ ...row, load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') });
    }
  }
  if (json) {
    for (const row of results) console.log(JSON.stringify(row));
  } else {
    console.log('| rows | composition | browsers | rows/min | fixed cost per row (mean / median) | frames per row | wall s | load |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.rows} | ${r.composition} | ${r.mode} | ${r.rowsPerMinute.toFixed(1)} | ${(r.fixedMsPerRow / 1000).toFixed(2)} s / ${(r.fixedMsPerRowMedian / 1000).toFixed(2)} s | ${r.framesPerRow} | ${r.wallSeconds.toFixed(1)} | ${r.load} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
