import os from 'node:os';
import { SeekframeError } from '@seekframe/composition';

export const MAX_WORKERS = 24;
/** Each worker is a browser process (~256 MB) plus headroom for the page and the frame queue. */
export const MEMORY_PER_WORKER = 512 * 1024 * 1024;
/** Below this many frames per worker, starting another browser costs more than it saves. */
export const MIN_FRAMES_PER_WORKER = 30;

export interface AutoWorkerInput {
  cores?: number;
  freeMemoryBytes?: number;
  frameCount: number;
  /** Workers `seekframe benchmark` found fastest; replaces cores - 2 (memory and frame limits stay). */
  recommended?: number;
}

/**
 * `--workers auto`: cores - 2 (leave room for ffmpeg and Node), but 2 on 2- to 4-core machines,
 * and no more than the cores; no more than free memory allows, no more than one per 30 frames,
 * at most 24. One browser cannot keep a core busy on its own (seek, draw and screenshot run one
 * after another in different processes): on 2 cores one worker left ~30% of the CPU idle at
 * 1080p, two brought the render from 65% to 85% of the machine's limit (bench/limits.ts).
 * Reads the machine only for inputs that are not given. `recommended` (the benchmark's saved
 * workers, which the host reads once and passes in the render context's tuning) replaces the rule.
 */
export function autoWorkerCount(input: AutoWorkerInput): number {
  return autoWorkerBounds(input).count;
}

/** The bounds `--workers auto` took the smallest of, so a report can say which one decided. */
export interface AutoWorkerBounds {
  count: number;
  /** cores - 2 (at least 2, at most the cores), or the benchmark's recommendation. */
  byCpu: number;
  /** Whole MEMORY_PER_WORKER in free memory. */
  byMemory: number;
  /** One per MIN_FRAMES_PER_WORKER frames. */
  byFrames: number;
  cores: number;
  recommended: boolean;
}

export function autoWorkerBounds(input: AutoWorkerInput): AutoWorkerBounds {
  const cores = input.cores ?? os.availableParallelism();
  const free = input.freeMemoryBytes ?? os.freemem();
  const byCpu = input.recommended ?? Math.min(Math.floor(cores), Math.max(2, Math.floor(cores) - 2));
  const byMemory = Math.floor(Math.max(0, free) / MEMORY_PER_WORKER);
  const byFrames = Math.ceil(Math.max(0, input.frameCount) / MIN_FRAMES_PER_WORKER);
  const count = Math.max(1, Math.min(byCpu, byMemory, byFrames, MAX_WORKERS));
  return { count, byCpu, byMemory, byFrames, cores: Math.floor(cores), recommended: input.recommended !== undefined };
}

/** Parses `--workers`: `auto` or an integer 1..24. */
export function parseWorkers(value: string | number): 'auto' | number {
  const text = String(value).trim().toLowerCase();
  if (text === 'auto') return 'auto';
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n >= 1 && n <= MAX_WORKERS) return n;
  }
  throw new SeekframeError(
    'invalid-options',
    `--workers must be "auto" or a whole number from 1 to ${MAX_WORKERS}, got "${String(value)}". ` +
      'Use --workers auto to size it from CPU cores, free memory and frame count.',
    { stage: 'config', details: { field: 'workers', value: String(value) } },
  );
}
