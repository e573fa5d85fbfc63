import type { RenderMeasurement } from '@seekframe/producer';
import type { BenchmarkSettings } from './benchmark-variants.js';

/** Measured facts of one benchmark render: the producer's measurement plus how it compares. */
export type BenchmarkRow = Omit<RenderMeasurement, 'result'> & {
  label: string;
  settings: BenchmarkSettings;
  /** Average PSNR against the reference output in dB (Infinity when identical). */
  psnr: number;
  matches: boolean;
};

/**
 * Output at or above this PSNR against the reference is taken as the same video. x264 with other
 * thread counts lands near 60 dB; JPEG 80 instead of 90 near 48 dB, which is a visible loss in
 * flat gradients, so it does not count as the same video.
 */
export const MATCH_PSNR_DB = 50;

/** Other processes took more than this share of the cores: fps comparisons are unreliable. */
export const BUSY_MACHINE_FRACTION = 0.15;

/** Fastest row whose output matches the reference; the reference itself always qualifies. */
export function pickRecommendation(rows: readonly BenchmarkRow[]): BenchmarkRow | undefined {
  return rows
    .filter((row) => row.matches)
    .reduce<BenchmarkRow | undefined>((best, row) => (!best || row.fps > best.fps ? row : best), undefined);
}

/** Rows faster than the reference that still match: their settings go into the combined run. */
export function fasterMatching(rows: readonly BenchmarkRow[]): BenchmarkRow[] {
  const reference = rows.find((row) => row.label === 'reference');
  if (!reference) return [];
  return rows.filter((row) => row.matches && row !== reference && row.fps > reference.fps);
}
