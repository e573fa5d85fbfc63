import { ColorGradingSchema, gradingFieldAt, groupOfField, type ColorGrading, type GradingField } from './color-grading-schema.js';

/** `$name` or `${name}` as a field's whole value takes the composition variable `name`. */
const REFERENCE = /^\$(?:\{([A-Za-z_][\w-]*)\}|([A-Za-z_][\w-]*))$/;

export function variableReference(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = REFERENCE.exec(value);
  return match ? (match[1] ?? match[2]) : undefined;
}

export type GradingPath = (string | number)[];

export interface GradingProblem {
  kind: 'json' | 'undeclared-reference' | 'reference-type' | 'invalid-field' | 'unknown-field';
  path: GradingPath;
  message: string;
  /** For `json`: the character offset JSON.parse stopped at, when known. */
  reason?: string;
}

/**
 * How a caller looks a variable up: the runtime answers with the instance's resolved value, lint
 * with the declaration's default and its type check. `undefined` = no such variable.
 */
export type ReferenceLookup = (name: string, field: GradingField) => { value: unknown; typeError?: string } | undefined;

function describePath(path: GradingPath): string {
  return path.join('.');
}

/** Whether a value fits a field's kind (the range is the schema's job). */
export function valueFitsField(value: unknown, field: GradingField): boolean {
  return field.kind === 'number' ? typeof value === 'number' : typeof value === 'string';
}

/**
 * Parses `data-color-grading`, replaces whole-value references, then validates with the schema.
 * Never throws: every fault is a problem with its JSON path. `grading` is set only when there
 * are no problems, so nothing half-valid is ever applied.
 */
export function parseColorGrading(text: string, lookup: ReferenceLookup): { grading?: ColorGrading; problems: GradingProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problems: [{ kind: 'json', path: [], message: 'is not valid JSON', reason }] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { problems: [{ kind: 'invalid-field', path: [], message: 'must be a JSON object like {"preset":"warm"}' }] };
  }
  const problems: GradingProblem[] = [];
  const fromVariable = new Map<string, string>();
  const substitute = (value: unknown, path: GradingPath): unknown => {
    const name = variableReference(value);
    if (name !== undefined) {
      const field = gradingFieldAt(path);
      if (!field) return value; // the schema reports the unknown field itself
      const found = lookup(name, field);
      if (!found) {
        problems.push({ kind: 'undeclared-reference', path, message: `uses "${String(value)}", but no variable "${name}" is declared` });
        return undefined;
      }
      if (found.typeError !== undefined || !valueFitsField(found.value, field)) {
        const why = found.typeError ?? `its value ${JSON.stringify(found.value)} is not a ${field.kind === 'number' ? 'number' : 'string'}`;
        problems.push({ kind: 'reference-type', path, message: `uses "${String(value)}", but ${why}` });
        return undefined;
      }
      fromVariable.set(describePath(path), ` (the value of variable "${name}" is ${JSON.stringify(found.value)})`);
      return found.value;
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = substitute(v, [...path, k]);
      return out;
    }
    return value;
  };
  const resolved = substitute(json, []);
  const parsed = ColorGradingSchema.safeParse(resolved);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const path = [...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), key];
          const group = path.length === 1 ? groupOfField(key) : undefined;
          const hint = group
            ? `; it belongs inside "${group}": {"${group}":{"${key}":…}}`
            : '; see the list of fields on the Colour grading page of the manual';
          problems.push({ kind: 'unknown-field', path, message: `"${describePath(path)}" is not a colour grading field${hint}` });
        }
        continue;
      }
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      const origin = fromVariable.get(describePath(path)) ?? '';
      problems.push({ kind: 'invalid-field', path, message: `"${describePath(path) || '(root)'}" ${issue.message}${origin}` });
    }
  }
  if (problems.length > 0 || !parsed.success) return { problems };
  return { grading: parsed.data as ColorGrading, problems };
}
