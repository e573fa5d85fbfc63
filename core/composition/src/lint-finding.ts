import type { LintRuleId, LintSeverity } from './lint-rules.js';

export interface LintFinding {
  /** POSIX path as given to `lintProject` (or the `file` option). */
  file: string;
  line: number;
  column: number;
  /** Stable rule id from LINT_RULES, e.g. `root/missing-width`. */
  rule: LintRuleId;
  /** The rule's severity (LINT_RULES): `info` is a note on a valid composition, nothing to fix. */
  severity: LintSeverity;
  /** Says what is wrong and how to fix it. */
  message: string;
}

/** `file:line:col severity rule message` — one line, like a compiler. */
export function formatFinding(f: LintFinding): string {
  return `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}`;
}
