export interface LintFinding {
  /** POSIX path as given to `lintProject` (or the `file` option). */
  file: string;
  line: number;
  column: number;
  /** Stable rule id, e.g. `root/missing-width`. */
  rule: string;
  severity: 'error' | 'warning';
  /** Says what is wrong and how to fix it. */
  message: string;
}

/** `file:line:col severity rule message` — one line, like a compiler. */
export function formatFinding(f: LintFinding): string {
  return `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}`;
}
