import type { BenchmarkRow } from './pick-recommendation.js';

/** A markdown-style table: readable in a terminal and pasteable into an issue. */
export function formatBenchmarkTable(rows: readonly BenchmarkRow[]): string[] {
  const header = [
    'settings',
    'fps',
    'capture CPU s/frame',
    'encode CPU s/frame',
    'idle',
    'others',
    'peak MB',
    'output KB',
    'PSNR dB',
    'match',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) {
    lines.push(
      `| ${[
        r.label,
        r.fps.toFixed(2),
        r.captureCpuPerFrame.toFixed(3),
        r.encodeCpuPerFrame.toFixed(3),
        `${(r.idleFraction * 100).toFixed(0)}%`,
        `${(r.othersFraction * 100).toFixed(0)}%`,
        r.peakMemoryMB.toFixed(0),
        (r.outputBytes / 1024).toFixed(0),
        Number.isFinite(r.psnr) ? r.psnr.toFixed(1) : 'identical',
        r.matches ? 'yes' : 'no',
      ].join(' | ')} |`,
    );
  }
  return lines;
}
