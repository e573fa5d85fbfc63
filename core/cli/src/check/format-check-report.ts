import type { CheckFinding, CheckReport } from '@seekframe/producer';
import type { Colors } from '../cli-context.js';

/**
 * The check for a person: each finding as a head line (severity, code, element or file, time),
 * its message and its fix, then one line per check and a summary. `--json` prints the report itself.
 */
export function formatCheckReport(report: CheckReport, c: Colors): string[] {
  const lines: string[] = [];
  for (const finding of report.findings) {
    const severity = finding.severity === 'error' ? c.red('error  ') : c.yellow('warning');
    const where = [whereOf(finding), timeOf(finding)].filter(Boolean).join('  ');
    lines.push(`${severity} ${c.bold(finding.code)}${where ? `  ${where}` : ''}`);
    lines.push(`        ${finding.message}`);
    lines.push(`        ${c.dim('fix:')} ${finding.fix}`);
  }
  if (report.findings.length > 0) lines.push('');
  lines.push(
    (Object.entries(report.checks) as Array<[string, CheckReport['checks']['lint']]>)
      .map(([name, { status, reason }]) => {
        const text = `${name} ${status}${reason ? ` (${reason})` : ''}`;
        return status === 'failed'
          ? c.red(text)
          : status === 'warnings'
            ? c.yellow(text)
            : status === 'skipped'
              ? c.dim(text)
              : c.green(text);
      })
      .join(' · '),
  );
  if (report.audio) {
    const { mix, target } = report.audio;
    const level = mix.integrated === null ? 'too quiet or short to measure' : `${mix.integrated.toFixed(1)} LUFS integrated`;
    const peak = mix.truePeak === null ? '' : `, true peak ${mix.truePeak.toFixed(1)} dBTP`;
    lines.push(c.dim(`audio: ${level} (target ${target} LUFS)${peak}; ${plural(report.audio.clips.length, 'clip')}`));
  }
  // A length the page decided (a registered timeline, no data-duration) is said, not left to guess.
  if (report.length && report.length.source !== 'data-duration') lines.push(`${c.dim('length')} ${report.length.note}`);
  if (report.snapshot) lines.push(`contact sheet: ${report.snapshot}`);
  const counts = `${plural(report.summary.errors, 'error')}, ${plural(report.summary.warnings, 'warning')}`;
  const tail = `${report.entry} (${report.format}): ${counts}; ${report.sampledTimes.length} frames sampled in ${(report.durationMs / 1000).toFixed(1)} s`;
  lines.push(report.ok ? `${c.green('✓')} ${tail}` : c.red(c.bold(`✗ ${tail}`)));
  return lines;
}

function whereOf(finding: CheckFinding): string {
  if (finding.element) return [...finding.element.hosts, finding.element.selector].join(' >>> ');
  if (finding.file) return finding.file.line > 0 ? `${finding.file.path}:${finding.file.line}:${finding.file.column}` : finding.file.path;
  return '';
}

function timeOf(finding: CheckFinding): string {
  if (!finding.time) return '';
  const { start, end } = finding.time;
  return start === end ? `${start.toFixed(2)} s` : `${start.toFixed(2)}-${end.toFixed(2)} s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
