import type { Interval, MotionPlanOptions, Mover } from './motion-plan.js';

/**
 * Sample times for each mover, shortest spans first (they have the fewest frames to share): at
 * each fraction of its span it takes a frame already planned within `reach` of the span's length,
 * else plans one, as long as the plan stays within the budget. The first and last fractions sit
 * near the span's ends, so a mover's samples see where its movement starts and where it ends,
 * never two nearly equal moments. Movers that would go over the budget are left out.
 */
export function shareTimes(
  movers: readonly Mover[],
  base: readonly number[],
  fractions: readonly number[],
  reach: number,
  options: Pick<MotionPlanOptions, 'fps' | 'maxSamples'>,
): { kept: Mover[]; unjudged: number } {
  const chosen = new Set(base);
  const kept = new Set<Mover>();
  const unjudged = new Set<Mover>();
  const length = (mover: Mover): number => mover.intervals.slice(0, 3).reduce((sum, i) => sum + (i.end - i.start), 0);
  for (const mover of [...movers].sort((a, b) => length(a) - length(b))) {
    const times = new Set<number>();
    const added = new Set<number>();
    for (const interval of mover.intervals.slice(0, 3)) {
      const within = [...chosen, ...added].filter((t) => t >= interval.start && t < interval.end);
      for (const ideal of sampleTimes([interval], fractions, options.fps)) {
        const near = within
          .filter((t) => !times.has(t) && Math.abs(t - ideal) <= reach * (interval.end - interval.start))
          .sort((a, b) => Math.abs(a - ideal) - Math.abs(b - ideal))[0];
        if (near !== undefined) times.add(near);
        else {
          times.add(ideal);
          if (!chosen.has(ideal)) added.add(ideal);
        }
      }
    }
    mover.times = [...times].sort((a, b) => a - b);
    // A span too short for two frames cannot be judged by comparing frames: not a budget matter.
    if (mover.times.length < 2) {
      mover.times = [];
      unjudged.add(mover);
      continue;
    }
    if (chosen.size + added.size > options.maxSamples) {
      mover.times = [];
      continue;
    }
    for (const t of added) chosen.add(t);
    kept.add(mover);
  }
  return { kept: movers.filter((mover) => kept.has(mover)), unjudged: unjudged.size };
}

/** Times every plan captures: its movers', those of the clips and caption elements, and a spread for the blank check. */
export function allTimes(
  movers: readonly Mover[],
  fixed: readonly number[],
  duration: number,
  fps: { num: number; den: number },
): number[] {
  const spread = sampleTimes([{ start: 0, end: duration }], [0.1, 0.5, 0.9], fps);
  return [...new Set([...spread, ...movers.flatMap((m) => m.times), ...fixed])].sort((a, b) => a - b);
}

/** Frame times at `fractions` of each interval, snapped to frames inside it, unique and ascending. */
export function sampleTimes(intervals: readonly Interval[], fractions: readonly number[], fps: { num: number; den: number }): number[] {
  const frames = new Set<number>();
  for (const { start, end } of intervals) {
    const first = Math.ceil((start * fps.num) / fps.den - 1e-9);
    const last = Math.ceil((end * fps.num) / fps.den - 1e-9) - 1;
    if (last < first) continue;
    for (const f of fractions) frames.add(Math.min(last, Math.max(first, Math.round(first + f * (last - first)))));
  }
  return [...frames].sort((a, b) => a - b).map((i) => (i * fps.den) / fps.num);
}
