import path from 'node:path';
import type { LintFinding } from '@seekframe/composition';
import type { Colors } from '../cli-context.js';

export interface LintReport {
  findings: LintFinding[];
  errors: number;
  warnings: number;
  /** Findings of severity `info`: notes on how a valid composition is read (where a length comes from). */
  notes: number;
}

/** Findings with `file` relative to `cwd`, plus the counts (the `--json` document). */
export function buildLintReport(findings: LintFinding[], cwd: string): LintReport {
  const shown = findings.map((f) => ({ ...f, file: relativeFile(cwd, f.file) }));
  return {
    findings: shown,
    errors: shown.filter((f) => f.severity === 'error').length,
    warnings: shown.filter((f) => f.severity === 'warning').length,
    notes: shown.filter((f) => f.severity === 'info').length,
  };
}

function relativeFile(cwd: string, file: string): string {
  return path.relative(cwd, path.resolve(cwd, file)) || file;
}

/** `file:line:col  severity  rule  message` lines, columns aligned, then one summary line. */
export function formatLintReport(report: LintReport, c: Colors, entryShown: string): string[] {
  const rows = report.findings.map((f) => ({ where: `${f.file}:${f.line}:${f.column}`, f }));
  const whereWidth = Math.max(0, ...rows.map((r) => r.where.length));
  const ruleWidth = Math.max(0, ...rows.map((r) => r.f.rule.length));
  const lines = rows.map(({ where, f }) => {
    const severity = f.severity === 'error' ? c.red('error  ') : f.severity === 'warning' ? c.yellow('warning') : c.dim('info   ');
    return `${where.padEnd(whereWidth)}  ${severity}  ${c.dim(f.rule.padEnd(ruleWidth))}  ${f.message}`;
  });
  lines.push(summaryLine(report, c, entryShown));
  return lines;
}

function summaryLine(report: LintReport, c: Colors, entryShown: string): string {
  if (report.errors + report.warnings === 0)
    return `${c.green('✓')} ${entryShown}: no problems found${report.notes > 0 ? ` (${plural(report.notes, 'note')} above)` : ''}`;
  const parts = [plural(report.errors, 'error'), plural(report.warnings, 'warning')];
  const text = `${parts.join(', ')} in ${entryShown}`;
  return report.errors > 0 ? c.red(c.bold(`✗ ${text}`)) : c.yellow(`! ${text}`);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
