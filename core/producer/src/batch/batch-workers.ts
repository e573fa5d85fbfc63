import { autoWorkerCount } from '@seekframe/engine';

/**
 * Browser workers for each row when `concurrency` rows render at once: with `auto`, the machine's
 * auto count split between the rows (at least 1 each), so C rows never start C times the browsers
 * one render would; an explicit number is what the user asked for, per row. `recommended` is the
 * render context's tuning (the benchmark's workers, read once by the CLI).
 */
export function workersPerRow(workers: 'auto' | number, concurrency: number, frames: number, recommended?: number): number {
  if (workers !== 'auto') return Math.min(workers, Math.max(1, frames));
  return Math.max(1, Math.floor(autoWorkerCount({ frameCount: frames, ...(recommended ? { recommended } : {}) }) / concurrency));
}
