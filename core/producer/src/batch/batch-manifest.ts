import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { processAlive } from '@seekframe/engine';
import path from 'node:path';
import { z } from 'zod';
import type { BatchCounts, BatchRowStatus } from '../render/render-events.js';

/**
 * manifest.json: the state of a batch, in the folder that holds its outputs (their deepest common
 * folder). Rewritten atomically (temp file + rename) after every state change, writes serialized,
 * so a reader never sees half a file and the last state always wins.
 */

const ErrorSchema = z.object({ code: z.string(), message: z.string(), stage: z.string().nullable() });

export const ManifestRowSchema = z.object({
  index: z.number().int().min(0),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'skipped']),
  /** Relative to the manifest's folder, `/` separators. */
  output: z.string(),
  /** The row exactly as given in the batch file (before merging over the declared defaults). */
  // A row's values as given: text, numbers, booleans, and JSON for structured variables (a transcript).
  variables: z.record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()).readonly(), z.record(z.string(), z.unknown()).readonly()]),
  ),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Wall-clock milliseconds of the row's render. */
  renderTimeMs: z.number().nullable(),
  /** Seconds of video, once the row completed. */
  videoDuration: z.number().nullable(),
  /** Bytes written, once the row completed. */
  size: z.number().nullable(),
  /** Completed in an earlier run and kept by --batch-resume. */
  resumed: z.boolean(),
  error: ErrorSchema.nullable(),
});

export const ManifestSchema = z.object({
  version: z.literal(1),
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  composition: z.string(),
  batchFile: z.string().nullable(),
  outputTemplate: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  counts: z.object({
    total: z.number(),
    pending: z.number(),
    running: z.number(),
    completed: z.number(),
    failed: z.number(),
    skipped: z.number(),
    resumed: z.number(),
  }),
  rows: z.array(ManifestRowSchema),
});

export type ManifestRow = z.infer<typeof ManifestRowSchema>;
export type Manifest = z.infer<typeof ManifestSchema>;

export function countRows(rows: readonly ManifestRow[]): BatchCounts & { pending: number; running: number } {
  const count = (status: BatchRowStatus): number => rows.filter((row) => row.status === status).length;
  return {
    total: rows.length,
    pending: count('pending'),
    running: count('running'),
    completed: count('completed'),
    failed: count('failed'),
    skipped: count('skipped'),
    resumed: rows.filter((row) => row.resumed).length,
  };
}

/** The deepest folder holding every output: one manifest per batch, even across sub-folders. */
export function manifestFolder(outputs: readonly string[]): string {
  const parts = outputs.map((output) => path.dirname(path.resolve(output)).split(path.sep));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => i < p.length && p[i] === parts[0]![i]); i++) common.push(parts[0]![i]!);
  return common.join(path.sep) || path.sep;
}

/** Reads a manifest for resume; undefined when there is none, it is unreadable or from another version. */
export async function readManifest(file: string): Promise<Manifest | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = ManifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Serialized atomic writer: each `write` lands after the previous one, via temp + rename. */
export function createManifestWriter(file: string): { write(manifest: Manifest): Promise<void>; flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  return {
    write(manifest) {
      // Snapshot now: the caller keeps mutating its rows while earlier writes are in flight.
      const text = `${JSON.stringify(manifest, null, 2)}\n`;
      chain = chain.then(async () => {
        const temp = path.join(path.dirname(file), `.manifest-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
        try {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(temp, text);
          await rename(temp, file);
        } catch (error) {
          failure ??= error;
          await rm(temp, { force: true });
        }
      });
      return chain;
    },
    async flush() {
      await chain;
      if (failure) throw failure;
    },
  };
}

/**
 * Removes the manifest temp files (`.manifest-<pid>-<hex>.tmp`) a batch killed mid-write left in
 * `folder`, when the process that wrote them is gone. Best effort, never throws.
 */
export async function sweepManifestTemps(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const pid = /^\.manifest-(\d+)-[0-9a-f]+\.tmp$/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    await rm(path.join(folder, name), { force: true }).catch(() => undefined);
  }
}
