import type { BatchRow, BatchValue } from './batch-rows.js';
import type { VariableDeclaration } from './variable-declarations.js';

const TRUE = /^(true|yes|1)$/i;
const FALSE = /^(false|no|0)$/i;

/** One CSV cell as the value its variable's type takes; a cell that does not read as that type stays text, so the usual check names it. */
function cellValue(text: string, declaration: VariableDeclaration | undefined): BatchValue {
  switch (declaration?.type) {
    case 'number': {
      const number = text.trim() === '' ? Number.NaN : Number(text.trim());
      return Number.isFinite(number) ? number : text;
    }
    case 'boolean':
      return TRUE.test(text.trim()) ? true : FALSE.test(text.trim()) ? false : text;
    case 'captions':
      try {
        return JSON.parse(text) as BatchValue;
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/**
 * Rows read from a CSV file (every cell text, the header's names as keys) as batch rows: each cell
 * becomes the type its variable declares (`number`: `42`, `boolean`: true/false/yes/no/1/0,
 * `captions`: JSON), and an empty cell is left out so the row takes the declared default. Columns
 * that no variable declares stay text (the usual check reports them as undeclared). Pure.
 */
export function batchRowsFromCsv(records: ReadonlyArray<Record<string, string>>, declarations: readonly VariableDeclaration[]): BatchRow[] {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  return records.map((record) => {
    const row: BatchRow = {};
    for (const [key, text] of Object.entries(record)) {
      if (text === '') continue;
      row[key] = cellValue(text, byId.get(key));
    }
    return row;
  });
}
