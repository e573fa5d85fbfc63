/**
 * Memory of real renders: what `--max-memory` bounds (the browsers' resident memory without mapped
 * files, summed over all their processes, peak over the render; see core/engine/src/system/tree-memory.ts)
 * beside the peak RSS of the whole process tree (Node, browsers, ffmpeg) as `seekframe benchmark`
 * reports it. The default bound (DEFAULT_MAX_MEMORY_MB) was chosen from these figures.
 *
 *   npx tsx bench/memory.ts                      # every case, 1 and 4 workers
 *   npx tsx bench/memory.ts --workers 1 --only ui-3d
 *   npx tsx bench/memory.ts --json
 *
 * Uses the built packages (run `npx turbo run build` first). A measurement, nothing asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureRender } from '@seekframe/producer';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const cases = [
  { name: 'ui-3d-reveal 1080p', projectDir: 'compositions/ui-3d-reveal' },
  { name: 'showcase 1080p', projectDir: 'bench/compositions/showcase-1080p' },
  { name: 'motion 1080p', projectDir: 'bench/compositions/motion-1080p' },
  { name: 'flat 1080p', projectDir: 'bench/compositions/flat-1080p' },
  { name: 'boxes 720p', projectDir: 'bench/compositions/boxes-720p' },
].filter((c) => c.name.includes(arg('--only') ?? ''));
const workerCounts = (arg('--workers') ?? '1,4').split(',').map(Number);
const json = process.argv.includes('--json');

const outDir = mkdtempSync(join(tmpdir(), 'seekframe-bench-memory-'));
const rows: Array<Record<string, string | number>> = [];
try {
  for (const benchCase of cases) {
    for (const workers of workerCounts) {
      const measured = await measureRender({
        projectDir: join(repoRoot, benchCase.projectDir),
        output: join(outDir, 'out.mp4'),
        format: 'mp4',
        quality: 'draft',
        workers,
      });
      const row = {
        case: benchCase.name,
        workers: measured.result.workers,
        frames: measured.frames,
        browserMB: measured.browserMemoryMB,
        perBrowserMB: Math.round(measured.browserMemoryMB / measured.result.workers),
        treeRssMB: Math.round(measured.peakMemoryMB),
        wallSeconds: Number(measured.wallSeconds.toFixed(1)),
      };
      rows.push(row);
      if (json) console.log(JSON.stringify(row));
      else
        console.error(
          `${row.case}, ${row.workers} worker(s): browsers ${row.browserMB} MB (${row.perBrowserMB} MB each), whole tree RSS ${row.treeRssMB} MB, ${row.wallSeconds} s`,
        );
    }
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
if (!json) {
  console.log('| case | workers | frames | browsers MB (--max-memory measure) | per browser MB | whole tree RSS MB |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.case} | ${r.workers} | ${r.frames} | ${r.browserMB} | ${r.perBrowserMB} | ${r.treeRssMB} |`);
}
