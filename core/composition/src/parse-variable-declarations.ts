import { VARIABLE_SCHEMAS, VARIABLE_TYPES, type VariableDeclaration, type VariableType } from './variable-declarations.js';

/** One fault in a declaration array. `index` is the declaration's position (-1 = the array itself). */
export interface VariableDeclarationProblem {
  index: number;
  /** Dotted field path inside the declaration, e.g. `default`, `options.1.value` ('' = whole entry). */
  path: string;
  rule: VariableRule;
  message: string;
}

export type VariableRule =
  | 'variables/not-array'
  | 'variables/not-object'
  | 'variables/missing-field'
  | 'variables/unknown-type'
  | 'variables/default-type'
  | 'variables/duplicate-id'
  | 'variables/enum-empty'
  | 'variables/enum-duplicate-option'
  | 'variables/invalid-field';

export interface ParsedVariableDeclarations {
  ok: boolean;
  /** The declarations that passed (a broken entry or a repeated id is left out), so callers can
   *  keep checking the rest of a project. */
  declarations: VariableDeclaration[];
  problems: VariableDeclarationProblem[];
}

const REQUIRED = ['id', 'type', 'label', 'default'] as const;

const EXPECTED_DEFAULT: Record<VariableType, string> = {
  string: 'a string',
  number: 'a number',
  color: 'a color written as "#rrggbb" (e.g. "#ff8800")',
  boolean: 'true or false',
  enum: 'one of the option values',
  captions: 'a transcript with word times',
};

function name(index: number, id: unknown): string {
  return typeof id === 'string' && id ? `variable #${index} ("${id}")` : `variable #${index}`;
}

/** Validates an already-JSON-parsed `data-composition-variables` value, reporting every problem. */
export function parseVariableDeclarations(json: unknown): ParsedVariableDeclarations {
  const problems: VariableDeclarationProblem[] = [];
  const declarations: VariableDeclaration[] = [];
  if (!Array.isArray(json)) {
    problems.push({
      index: -1,
      path: '',
      rule: 'variables/not-array',
      message:
        'data-composition-variables must be a JSON array of declarations like [{"id":"title","type":"string","label":"Title","default":"Hello"}]',
    });
    return { ok: false, declarations, problems };
  }
  const ids = new Map<string, number>();
  json.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push({
        index,
        path: '',
        rule: 'variables/not-object',
        message: `${name(index, undefined)} must be an object with id, type, label and default`,
      });
      return;
    }
    const record = entry as Record<string, unknown>;
    const label = name(index, record.id);
    const missing = REQUIRED.filter((key) => record[key] === undefined);
    for (const key of missing) {
      problems.push({
        index,
        path: key,
        rule: 'variables/missing-field',
        message: `${label} has no "${key}"; add it (every declaration needs id, type, label and default)`,
      });
    }
    const type = record.type;
    if (type !== undefined && !VARIABLE_TYPES.includes(type as VariableType)) {
      problems.push({
        index,
        path: 'type',
        rule: 'variables/unknown-type',
        message: `${label} has type ${JSON.stringify(type)}; use one of ${VARIABLE_TYPES.join(', ')}`,
      });
      return;
    }
    if (type === undefined) return;
    const result = VARIABLE_SCHEMAS[type as VariableType].safeParse(entry);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.map(String).join('.');
        const top = String(issue.path[0] ?? '');
        if (missing.includes(top as (typeof REQUIRED)[number])) continue;
        const params = (issue as { params?: { rule?: VariableRule } }).params;
        let rule: VariableRule = params?.rule ?? 'variables/invalid-field';
        let message = `${label}: "${path}" ${issue.message}`;
        if (!params?.rule && top === 'default') {
          rule = 'variables/default-type';
          message = `${label}: "default" must be ${EXPECTED_DEFAULT[type as VariableType]} for type "${type}"; got ${JSON.stringify(record.default)}. Fix the default or change the type`;
        } else if (path === 'options' && (issue.code === 'too_small' || issue.code === 'invalid_type')) {
          rule = 'variables/enum-empty';
          message = `${label}: an enum needs "options": a non-empty array of {"value", "label"} objects`;
        }
        problems.push({ index, path, rule, message });
      }
      return;
    }
    if (missing.length > 0) return;
    const declaration = result.data;
    const first = ids.get(declaration.id);
    if (first !== undefined) {
      problems.push({
        index,
        path: 'id',
        rule: 'variables/duplicate-id',
        message: `${label} repeats the id of variable #${first}; give each variable a unique id`,
      });
      return;
    }
    ids.set(declaration.id, index);
    declarations.push(declaration);
  });
  return { ok: problems.length === 0, declarations, problems };
}

/** Parses the raw attribute text (JSON) and validates it. Malformed JSON is one problem. */
export function parseVariableDeclarationsAttribute(text: string): ParsedVariableDeclarations & { malformedJson?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, declarations: [], problems: [], malformedJson: reason };
  }
  return parseVariableDeclarations(json);
}
