import { parseCaptionTrack } from './caption-track.js';
import { isHexColor, type VariableDeclaration } from './variable-declarations.js';

export type VariableIssueKind = 'undeclared' | 'type-mismatch' | 'enum-out-of-range';

export interface VariableIssue {
  kind: VariableIssueKind;
  id: string;
  expected?: string;
  actual?: unknown;
  /** Where inside the value the problem is (a transcript's `segments[0].words[2].end`). */
  field?: string;
  message: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function checkOne(d: VariableDeclaration, value: unknown): VariableIssue | undefined {
  const mismatch = (expected: string, why: string): VariableIssue => ({
    kind: 'type-mismatch',
    id: d.id,
    expected,
    actual: value,
    message: `variable "${d.id}" ${why}; got ${describe(value)}`,
  });
  switch (d.type) {
    case 'string':
      if (typeof value !== 'string') return mismatch('string', 'must be a string');
      if (d.maxLength !== undefined && value.length > d.maxLength) {
        return mismatch(
          `string of at most ${d.maxLength} characters`,
          `is longer than its maxLength ${d.maxLength} (${value.length} characters); shorten it`,
        );
      }
      return undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return mismatch('number', 'must be a number (not a quoted string)');
      if (d.min !== undefined && value < d.min) return mismatch(`number >= ${d.min}`, `is below its min ${d.min}; use at least ${d.min}`);
      if (d.max !== undefined && value > d.max) return mismatch(`number <= ${d.max}`, `is above its max ${d.max}; use at most ${d.max}`);
      return undefined;
    case 'color':
      if (!isHexColor(value)) return mismatch('color #rrggbb', 'must be a color written as #rrggbb, e.g. "#ff8800" (malformed color)');
      return undefined;
    case 'boolean':
      if (typeof value !== 'boolean') return mismatch('boolean', 'must be true or false (not a string)');
      return undefined;
    case 'captions': {
      const result = parseCaptionTrack(value);
      if (result.ok) return undefined;
      const first = result.problems[0]!;
      const more =
        result.problems.length > 1 ? ` (and ${result.problems.length - 1} more problem${result.problems.length > 2 ? 's' : ''})` : '';
      return {
        kind: 'type-mismatch',
        id: d.id,
        expected: 'a transcript with word times',
        field: first.path,
        message: `variable "${d.id}": ${first.path ? `${first.path} ` : ''}${first.message}${more}`,
      };
    }
    case 'enum': {
      const values = d.options.map((o) => o.value);
      if (!values.includes(value as string | number)) {
        const list = values.map((v) => JSON.stringify(v)).join(', ');
        return {
          kind: 'enum-out-of-range',
          id: d.id,
          expected: `one of ${list}`,
          actual: value,
          message: `variable "${d.id}" must be one of ${list}; got ${describe(value)}`,
        };
      }
      return undefined;
    }
  }
}

/**
 * Checks values supplied for a composition (CLI, batch row, player, or a host's
 * `data-variable-values`) against its declarations. Returns one issue per bad key; an empty
 * array means every value fits. `undefined` values are ignored (they fall through).
 */
export function validateOverrides(declarations: readonly VariableDeclaration[], values: Record<string, unknown>): VariableIssue[] {
  const byId = new Map(declarations.map((d) => [d.id, d]));
  const issues: VariableIssue[] = [];
  for (const [id, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const declaration = byId.get(id);
    if (!declaration) {
      const known = declarations.map((d) => d.id).join(', ') || 'none';
      issues.push({
        kind: 'undeclared',
        id,
        actual: value,
        message: `variable "${id}" is not declared by the composition (declared: ${known}); remove it or add it to data-composition-variables`,
      });
      continue;
    }
    const issue = checkOne(declaration, value);
    if (issue) issues.push(issue);
  }
  return issues;
}
