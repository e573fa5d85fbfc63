import { mkdir, rename, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { seekframeCacheDir } from '../system/seekframe-cache-dir.js';
import { renderTuningSchema, type RenderTuning } from './render-tuning.js';

/**
 * Where `seekframe benchmark` saves its recommendation: per machine, not per project, because the
 * fastest settings depend on cores, memory and the browser, not on the composition.
 * $SEEKFRAME_CACHE_DIR/benchmark.json, else $XDG_CACHE_HOME/seekframe/benchmark.json, else
 * ~/.cache/seekframe/benchmark.json.
 */
export function savedBenchmarkPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(seekframeCacheDir(env), 'benchmark.json');
}

export const savedBenchmarkSchema = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  /** The recommendation applies only on a machine with this many cores. */
  cores: z.number().int().positive(),
  browser: z.string(),
  /** The composition the benchmark measured (informational). */
  composition: z.string(),
  recommendation: renderTuningSchema.omit({ maxFrames: true, skipUnchangedFrames: true }).extend({
    captureMode: z.enum(['canvas', 'beginframe', 'screenshot']),
  }),
});

export type SavedBenchmark = z.infer<typeof savedBenchmarkSchema>;

export async function saveBenchmark(saved: SavedBenchmark, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = savedBenchmarkPath(env);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(savedBenchmarkSchema.parse(saved), null, 2)}\n`);
  await rename(temp, file);
  return file;
}

/**
 * The saved recommendation for this machine, or undefined when there is none, it is unreadable,
 * or it was measured with another core count. A stale or broken cache must never fail a render;
 * `seekframe benchmark` rewrites it.
 */
export function loadSavedBenchmark(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): SavedBenchmark | undefined {
  let raw: string;
  try {
    raw = readFileSync(savedBenchmarkPath(env), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = savedBenchmarkSchema.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.cores === cores ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The saved recommendation as render tuning ({} when there is none for this machine). Read once
 * by the host that starts renders (the CLI) and passed in the render context: nothing in the
 * engine or the producer reads the home folder on its own, so a render on another machine (a
 * server, a Lambda chunk) never changes speed settings, or JPEG loss, behind the caller's back.
 */
export function savedRenderTuning(env: NodeJS.ProcessEnv = process.env): RenderTuning {
  const saved = loadSavedBenchmark(env);
  if (!saved) return {};
  const { captureMode: _mode, ...tuning } = saved.recommendation;
  return tuning;
}
