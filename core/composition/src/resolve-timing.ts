import { parseStartExpression, splitTrailingOffset } from './start-expression.js';

/** Plain data in: a clip or a sub-composition host as read from HTML or from the live DOM. */
export interface TimingItem {
  id?: string | undefined;
  /** Raw `data-start` text. */
  start: string;
  /** Seconds, when known (data-duration, measured media length, child composition duration). */
  duration?: number | undefined;
  trackIndex?: number | undefined;
}

export type TimingRule = 'timing/invalid-start' | 'timing/unknown-ref' | 'timing/cycle' | 'timing/missing-duration' | 'timing/overlap';

export interface TimingFinding {
  rule: TimingRule;
  severity: 'error' | 'warning';
  /** Index into the input array of the item the finding is about. */
  index: number;
  /** For `timing/missing-duration` and `timing/overlap`: the index of the other item involved. */
  target?: number;
  message: string;
}

export interface ResolvedTiming<T extends TimingItem = TimingItem> {
  item: T;
  index: number;
  /** Absolute start in seconds; undefined when it could not be resolved (see findings). */
  start: number | undefined;
  /** start + duration; undefined when either is unknown. */
  end: number | undefined;
}

export interface TimingResult<T extends TimingItem = TimingItem> {
  items: ResolvedTiming<T>[];
  findings: TimingFinding[];
}

export interface ResolveTimingOptions<T extends TimingItem> {
  /** How to name an item without an id in messages (e.g. `<video> at 12:3`). */
  describe?: (item: T, index: number) => string;
}

type State = { status: 'pending' } | { status: 'visiting' } | { status: 'done'; start: number | undefined };

/**
 * Resolves every item's absolute start/end. Pure and DOM-free: the linter feeds it parsed HTML and
 * the runtime feeds it the live DOM. Unknown ids, cycles and ends of items without a duration are
 * errors; two items overlapping on one track are warnings.
 */
export function resolveTiming<T extends TimingItem>(items: readonly T[], options: ResolveTimingOptions<T> = {}): TimingResult<T> {
  const describe = (i: number): string => {
    const item = items[i] as T;
    if (item.id) return `"${item.id}"`;
    return options.describe ? options.describe(item, i) : `item #${i}`;
  };
  const byId = new Map<string, number>();
  items.forEach((item, i) => {
    if (item.id && !byId.has(item.id)) byId.set(item.id, i);
  });
  const findings: TimingFinding[] = [];
  const states: State[] = items.map(() => ({ status: 'pending' }));
  const reportedCycles = new Set<string>();

  const resolve = (i: number, path: number[]): number | undefined => {
    const state = states[i] as State;
    if (state.status === 'done') return state.start;
    if (state.status === 'visiting') {
      const cycle = [...path.slice(path.indexOf(i)), i].map((k) => items[k]?.id ?? describe(k));
      const key = [...cycle.slice(0, -1)].sort().join('|');
      if (!reportedCycles.has(key)) {
        reportedCycles.add(key);
        findings.push({
          rule: 'timing/cycle',
          severity: 'error',
          index: i,
          message: `data-start forms a cycle: ${cycle.join(' -> ')}; make one of them start at a number of seconds`,
        });
      }
      return undefined;
    }
    states[i] = { status: 'visiting' };
    const start = startOf(i, [...path, i]);
    states[i] = { status: 'done', start };
    return start;
  };

  const startOf = (i: number, path: number[]): number | undefined => {
    const item = items[i] as T;
    const expr = parseStartExpression(item.start);
    if (expr.kind === 'invalid') {
      findings.push({ rule: 'timing/invalid-start', severity: 'error', index: i, message: `data-start of ${describe(i)} ${expr.reason}` });
      return undefined;
    }
    if (expr.kind === 'seconds') return expr.seconds;
    let ref = expr;
    let target = byId.get(ref.id);
    if (target === undefined) {
      const split = splitTrailingOffset(ref.id);
      const alt = split && byId.get(split.id);
      if (split && alt !== undefined) {
        ref = { kind: 'ref', id: split.id, offset: split.offset };
        target = alt;
      }
    }
    if (target === undefined) {
      const known = [...byId.keys()];
      findings.push({
        rule: 'timing/unknown-ref',
        severity: 'error',
        index: i,
        message: `data-start of ${describe(i)} refers to "${ref.id}", but no clip or composition has that id${known.length ? ` (known: ${known.join(', ')})` : ''}; fix the id or use seconds`,
      });
      return undefined;
    }
    const targetStart = resolve(target, path);
    if (targetStart === undefined) return undefined;
    const duration = items[target]?.duration;
    if (duration === undefined) {
      findings.push({
        rule: 'timing/missing-duration',
        severity: 'error',
        index: i,
        target,
        message: `data-start of ${describe(i)} follows "${ref.id}", which has no known duration; add data-duration to "${ref.id}" or start at a number of seconds`,
      });
      return undefined;
    }
    return Math.max(0, targetStart + duration + ref.offset);
  };

  const resolved: ResolvedTiming<T>[] = items.map((item, index) => {
    const start = resolve(index, []);
    const end = start !== undefined && item.duration !== undefined ? start + item.duration : undefined;
    return { item, index, start, end };
  });
  findings.push(...findOverlaps(resolved, describe));
  return { items: resolved, findings };
}

function findOverlaps<T extends TimingItem>(resolved: ResolvedTiming<T>[], describe: (i: number) => string): TimingFinding[] {
  const tracks = new Map<number, ResolvedTiming<T>[]>();
  for (const r of resolved) {
    if (r.item.trackIndex === undefined || r.start === undefined || r.end === undefined) continue;
    const list = tracks.get(r.item.trackIndex) ?? [];
    list.push(r);
    tracks.set(r.item.trackIndex, list);
  }
  const findings: TimingFinding[] = [];
  for (const [track, list] of tracks) {
    list.sort((a, b) => (a.start as number) - (b.start as number) || a.index - b.index);
    for (let k = 1; k < list.length; k++) {
      const current = list[k] as ResolvedTiming<T>;
      // Compare with every earlier clip still running, not only the previous one.
      for (let j = 0; j < k; j++) {
        const earlier = list[j] as ResolvedTiming<T>;
        if ((earlier.end as number) > (current.start as number) + 1e-9) {
          findings.push({
            rule: 'timing/overlap',
            severity: 'warning',
            index: current.index,
            target: earlier.index,
            message: `${describe(current.index)} (${fmt(current.start)}s-${fmt(current.end)}s) overlaps ${describe(earlier.index)} (${fmt(earlier.start)}s-${fmt(earlier.end)}s) on data-track-index ${track}; move one to another track or shift its data-start`,
          });
        }
      }
    }
  }
  return findings;
}

function fmt(n: number | undefined): string {
  return n === undefined ? '?' : String(Math.round(n * 1000) / 1000);
}
