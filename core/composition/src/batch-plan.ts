import { SeekframeError } from './errors.js';
import { expandOutputTemplate } from './batch-output-template.js';
import { parseBatchRows, type BatchRow, type BatchRowProblem } from './batch-rows.js';
import { validateOverrides } from './validate-overrides.js';
import type { VariableDeclaration } from './variable-declarations.js';

export interface BatchPlanInput {
  /** The JSON-decoded batch file. */
  batch: unknown;
  /** `--output` with `{key}`/`{index}` placeholders. */
  outputTemplate: string;
  /** Turns an expanded output into the path used to detect duplicates (absolute, normalised). */
  resolveOutput: (output: string) => string;
  /** The entry's declarations; rows are checked against them under `strictVariables`. */
  declarations: readonly VariableDeclaration[];
  strictVariables: boolean;
  /** Names the batch in messages (the file path, or "the batch"). */
  source: string;
}

export interface PlannedRow {
  index: number;
  variables: BatchRow;
  /** Resolved output path (from `resolveOutput`). */
  output: string;
}

/**
 * Checks a whole batch before anything renders: the file's shape, each row, placeholders every
 * row must fill, duplicate outputs, and (strict) each row's variables. Throws one `invalid-batch`
 * error listing every bad row (index and reason; `details.problems`), else returns the plan.
 */
export function planBatch(input: BatchPlanInput): PlannedRow[] {
  const { rows, problems } = parseBatchRows(input.batch);
  const owners = new Map<string, number>();
  const planned: PlannedRow[] = [];
  rows.forEach((variables, index) => {
    if (variables === null) return;
    const { output, missing } = expandOutputTemplate(input.outputTemplate, variables, index);
    for (const key of missing) {
      const value = variables[key];
      problems.push({
        index,
        reason: Object.hasOwn(variables, key)
          ? `"${key}" is ${Array.isArray(value) ? 'an array' : 'an object'}, which cannot fill the {${key}} placeholder in the output template ${input.outputTemplate}; use a text or number key there`
          : `has no "${key}" for the {${key}} placeholder in the output template ${input.outputTemplate}; add the key or change --output`,
      });
    }
    const resolved = input.resolveOutput(output);
    const owner = owners.get(resolved);
    if (missing.length === 0 && owner !== undefined) {
      problems.push({
        index,
        reason: `writes ${resolved}, like row ${owner}; put a placeholder that differs per row (e.g. {index}) in --output`,
      });
    } else if (missing.length === 0) owners.set(resolved, index);
    for (const issue of validateOverrides(input.declarations, variables)) {
      // A bad transcript is refused strict or not: its captions would show at the wrong times.
      const captions = input.declarations.some((d) => d.id === issue.id && d.type === 'captions');
      if (captions) problems.push({ index, reason: issue.message });
      else if (input.strictVariables) problems.push({ index, reason: `${issue.message} (--strict-variables)` });
    }
    planned.push({ index, variables, output: resolved });
  });
  if (problems.length > 0)
    throw invalidBatch(
      input.source,
      problems.sort((a, b) => (a.index ?? -1) - (b.index ?? -1)),
    );
  return planned;
}

function invalidBatch(source: string, problems: BatchRowProblem[]): SeekframeError {
  const lines = problems.map((p) => `  ${p.index === null ? 'file' : `row ${p.index}`}: ${p.reason}`);
  const rowCount = new Set(problems.filter((p) => p.index !== null).map((p) => p.index)).size;
  const summary = rowCount > 0 ? `${rowCount} bad row${rowCount === 1 ? '' : 's'}` : 'it is malformed';
  return new SeekframeError(
    'invalid-batch',
    `${source} cannot be rendered (${summary}); nothing was rendered:\n${lines.join('\n')}\nFix the rows and run again.`,
    {
      stage: 'config',
      details: { source, problems },
    },
  );
}
