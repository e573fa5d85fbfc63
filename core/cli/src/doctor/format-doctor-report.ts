import type { Colors } from '../cli-context.js';
import type { CheckStatus, DoctorReport } from './check-result.js';

/** One aligned line per check, its fix indented below, then a verdict. */
export function formatDoctorReport(report: DoctorReport, c: Colors): string[] {
  const label: Record<CheckStatus, string> = { ok: c.green('ok  '), warn: c.yellow('warn'), fail: c.red('fail') };
  const width = Math.max(0, ...report.checks.map((check) => check.title.length));
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${label[check.status]}  ${c.bold(check.title.padEnd(width))}  ${check.summary}`);
    if (check.fix && check.status !== 'ok') lines.push(`      ${' '.repeat(width)}  ${c.dim('fix:')} ${check.fix}`);
  }
  lines.push('');
  lines.push(verdict(report, c));
  return lines;
}

function verdict(report: DoctorReport, c: Colors): string {
  const { ok, warn, fail } = report.counts;
  const counts = `${ok} ok, ${warn} warning${warn === 1 ? '' : 's'}, ${fail} failure${fail === 1 ? '' : 's'}`;
  if (report.status === 'fail') return c.red(c.bold(`${counts}: rendering cannot run until the failures are fixed.`));
  if (report.status === 'warn') return c.yellow(`${counts}: ready to render (see the warnings).`);
  return c.green(`${counts}: ready to render.`);
}
