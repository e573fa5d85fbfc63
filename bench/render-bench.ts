/**
 * Render benchmark: renders real compositions end to end through the same code path as
 * `seekframe render` and prints, per case, frames per second, CPU-seconds per frame spent in the
 * browser (capture) and in ffmpeg (encode), peak memory of the whole process tree and output size.
 *
 *   npx tsx bench/render-bench.ts            # all cases
 *   npx tsx bench/render-bench.ts --json     # one JSON object per case on stdout
 *   npx tsx bench/render-bench.ts --only 720p
 *
 * Uses the built packages (run `npx turbo run build` first; scripts/setup.sh does).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureRender, type RenderMeasurement } from '@seekframe/producer';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

interface BenchCase {
  name: string;
  projectDir: string;
  captureMode: 'canvas' | 'beginframe' | 'screenshot';
  quality: 'draft' | 'standard' | 'high';
  fps: number;
}

const cases: BenchCase[] = [
  {
    name: 'ui-3d-reveal 1080p30 standard canvas',
    projectDir: 'compositions/ui-3d-reveal',
    captureMode: 'canvas',
    quality: 'standard',
    fps: 30,
  },
  {
    name: 'ui-3d-reveal 1080p30 standard beginframe',
    projectDir: 'compositions/ui-3d-reveal',
    captureMode: 'beginframe',
    quality: 'standard',
    fps: 30,
  },
  {
    name: 'ui-3d-reveal 1080p30 standard screenshot',
    projectDir: 'compositions/ui-3d-reveal',
    captureMode: 'screenshot',
    quality: 'standard',
    fps: 30,
  },
  {
    name: 'boxes 720p30 standard canvas',
    projectDir: 'bench/compositions/boxes-720p',
    captureMode: 'canvas',
    quality: 'standard',
    fps: 30,
  },
  {
    name: 'boxes 720p30 standard beginframe',
    projectDir: 'bench/compositions/boxes-720p',
    captureMode: 'beginframe',
    quality: 'standard',
    fps: 30,
  },
  {
    name: 'boxes 720p30 standard screenshot',
    projectDir: 'bench/compositions/boxes-720p',
    captureMode: 'screenshot',
    quality: 'standard',
    fps: 30,
  },
];

type BenchResult = Omit<RenderMeasurement, 'result'> & { case: string; workers: number };

async function runCase(benchCase: BenchCase, outDir: string): Promise<BenchResult> {
  const output = join(outDir, `${benchCase.name.replace(/\W+/g, '-')}.mp4`);
  const { result, ...measured } = await measureRender({
    projectDir: join(repoRoot, benchCase.projectDir),
    output,
    format: 'mp4',
    quality: benchCase.quality,
    fps: benchCase.fps,
    workers: 'auto',
    captureMode: benchCase.captureMode,
  });
  // A canvas case whose page canvas capture cannot draw is captured with beginframe: the row says so.
  const used = result.captureMode === benchCase.captureMode ? '' : ` (used ${result.captureMode})`;
  return { case: `${benchCase.name}${used}`, workers: result.workers, ...measured };
}

function printTable(results: BenchResult[]): void {
  const header = [
    'case',
    'workers',
    'frames',
    'wall s',
    'fps',
    'capture CPU s/frame',
    'encode CPU s/frame',
    'node CPU s/frame',
    'peak MB',
    'output MB',
  ];
  const rows = results.map((r) => [
    r.case,
    String(r.workers),
    String(r.frames),
    r.wallSeconds.toFixed(1),
    r.fps.toFixed(2),
    r.captureCpuPerFrame.toFixed(3),
    r.encodeCpuPerFrame.toFixed(3),
    r.nodeCpuPerFrame.toFixed(3),
    r.peakMemoryMB.toFixed(0),
    (r.outputBytes / 2 ** 20).toFixed(2),
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`\n${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average at the end ${load}`);
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
  const selected = cases.filter((c) => !only || c.name.includes(only));
  const outDir = mkdtempSync(join(tmpdir(), 'seekframe-bench-'));
  const results: BenchResult[] = [];
  try {
    for (const benchCase of selected) {
      if (!json) console.error(`running: ${benchCase.name}`);
      const result = await runCase(benchCase, outDir);
      results.push(result);
      if (json) console.log(JSON.stringify(result));
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  if (!json) printTable(results);
}

await main();
