import { stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalJson, type PlannedRow } from '@seekframe/composition';
import type { Manifest, ManifestRow } from './batch-manifest.js';

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
  // Key order does not matter: `{a,b}` and `{b,a}` are the same row.
  if (canonicalJson(old.variables) !== canonicalJson(row.variables)) return undefined;
  const exists = await stat(path.resolve(folder, old.output)).then(
    () => true,
    () => false,
  );
  return exists ? old : undefined;
}
