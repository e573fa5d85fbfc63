import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PlannedRow } from '@seekframe/composition';
import type { Manifest, ManifestRow } from './batch-manifest.js';

/** Key order does not matter: `{a,b}` and `{b,a}` are the same row. */
function canonical(values: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(values)
      .sort()
      .map((key) => [key, values[key]]),
  );
}

/**
 * `--batch-resume`: the previous manifest's entry for a row, when that row completed with the
 * same content and the same output, and the output still exists. Those rows are not rendered again.
 */
export async function resumableRow(
  previous: Manifest | undefined,
  row: PlannedRow,
  relativeOutput: string,
  folder: string,
): Promise<ManifestRow | undefined> {
  const old = previous?.rows.find((entry) => entry.index === row.index);
  if (!old || old.status !== 'completed' || old.output !== relativeOutput) return undefined;
  if (canonical(old.variables) !== canonical(row.variables)) return undefined;
  const exists = await stat(path.resolve(folder, old.output)).then(
    () => true,
    () => false,
  );
  return exists ? old : undefined;
}
