import { z } from 'zod';

/**
 * A batch file's rows: a JSON array of objects, or an object with a `rows` array. Each row maps
 * variable ids to values: strings, numbers and booleans, and JSON arrays or objects for the
 * variables that hold structure (a `captions` transcript). Pure: the caller reads the file.
 */

/** A JSON array or object a row carries for a structured variable (a transcript). */
export type BatchStructure = readonly unknown[] | { readonly [key: string]: unknown };
export type BatchValue = string | number | boolean | BatchStructure;
export type BatchRow = Record<string, BatchValue>;

/** One bad row (or `index: null` for the file as a whole) and why. */
export interface BatchRowProblem {
  index: number | null;
  reason: string;
}

const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
const FileSchema = z.union([z.array(z.unknown()), z.object({ rows: z.array(z.unknown()) })]);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** Checks one row; returns the reasons it is bad (empty when it is a valid row). */
function rowReasons(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [`is ${describe(value)}, not an object of variable values like {"title":"Hello"}`];
  }
  const reasons: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (ScalarSchema.safeParse(field).success && !(typeof field === 'number' && !Number.isFinite(field))) continue;
    // Structure is checked against the variable's declaration (validateOverrides), like any value.
    if (typeof field === 'object' && field !== null) continue;
    const why =
      field === null
        ? 'is null (remove the key to use the declared default)'
        : `is ${describe(field)} (values must be strings, numbers, booleans, or JSON for a structured variable such as a transcript)`;
    reasons.push(`"${key}" ${why}`);
  }
  return reasons;
}

/**
 * Parses an already JSON-decoded batch file. Returns each row (null where the row is bad) and
 * every problem found: the whole file is checked, so one message can list every bad row.
 */
export function parseBatchRows(value: unknown): { rows: Array<BatchRow | null>; problems: BatchRowProblem[] } {
  const file = FileSchema.safeParse(value);
  if (!file.success) {
    return {
      rows: [],
      problems: [{ index: null, reason: `must be a JSON array of rows or an object with a "rows" array, got ${describe(value)}` }],
    };
  }
  const list = Array.isArray(file.data) ? file.data : file.data.rows;
  if (list.length === 0)
    return { rows: [], problems: [{ index: null, reason: 'has no rows; add at least one object of variable values' }] };
  const problems: BatchRowProblem[] = [];
  const rows = list.map((row, index) => {
    const reasons = rowReasons(row);
    for (const reason of reasons) problems.push({ index, reason });
    return reasons.length === 0 ? (row as BatchRow) : null;
  });
  return { rows, problems };
}
