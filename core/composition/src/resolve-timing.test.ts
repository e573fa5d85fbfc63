import { describe, expect, test } from 'vitest';
import { resolveTiming, type TimingItem } from './resolve-timing.js';

const starts = (items: TimingItem[]) => resolveTiming(items).items.map((r) => [r.start, r.end]);
const rules = (items: TimingItem[]) => resolveTiming(items).findings.map((f) => `${f.severity} ${f.rule} #${f.index}`);

describe('resolveTiming', () => {
  test('seconds', () => {
    expect(starts([{ start: '0', duration: 2 }, { start: '1.5' }])).toEqual([
      [0, 2],
      [1.5, undefined],
    ]);
  });

  test('an id means right after it ends', () => {
    const result = resolveTiming([
      { id: 'intro', start: '1', duration: 2 },
      { id: 'main', start: 'intro', duration: 1 },
    ]);
    expect(result.findings).toEqual([]);
    expect(result.items[1]).toMatchObject({ start: 3, end: 4, index: 1 });
  });

  test('plus and minus offsets', () => {
    expect(
      starts([
        { id: 'a', start: '0', duration: 2 },
        { start: 'a + 0.5', duration: 1 },
        { start: 'a - 0.5', duration: 1 },
        { start: 'a-1' },
      ]),
    ).toEqual([
      [0, 2],
      [2.5, 3.5],
      [1.5, 2.5],
      [1, undefined],
    ]);
  });

  test('an id with a numeric tail that names a clip is that clip, not an offset', () => {
    expect(starts([{ id: 'a', start: '0', duration: 1 }, { id: 'a-1', start: '5', duration: 1 }, { start: 'a-1' }])[2]).toEqual([
      6,
      undefined,
    ]);
  });

  test('a negative result clamps to 0', () => {
    expect(starts([{ id: 'a', start: '0', duration: 1 }, { start: 'a - 3' }])[1]).toEqual([0, undefined]);
  });

  test('chains resolve regardless of document order', () => {
    const result = resolveTiming([
      { id: 'c', start: 'b + 1', duration: 1 },
      { id: 'b', start: 'a', duration: 2 },
      { id: 'a', start: '0.5', duration: 1 },
    ]);
    expect(result.findings).toEqual([]);
    expect(result.items.map((r) => r.start)).toEqual([4.5, 1.5, 0.5]);
  });

  test('keeps extra fields of the caller’s items (the runtime passes elements)', () => {
    const result = resolveTiming([{ start: '1', duration: 1, element: 'el' }]);
    expect(result.items[0]?.item.element).toBe('el');
  });

  test('an unknown id is an error naming the known ids', () => {
    const result = resolveTiming([{ id: 'a', start: '0', duration: 1 }, { start: 'intro + 1' }]);
    expect(result.findings).toEqual([expect.objectContaining({ rule: 'timing/unknown-ref', severity: 'error', index: 1 })]);
    expect(result.findings[0]?.message).toContain('"intro"');
    expect(result.findings[0]?.message).toContain('known: a');
    expect(result.items[1]?.start).toBeUndefined();
  });

  test('a cycle is one error naming the cycle', () => {
    const result = resolveTiming([{ id: 'a', start: 'b', duration: 1 }, { id: 'b', start: 'a', duration: 1 }, { start: 'a' }]);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ rule: 'timing/cycle', severity: 'error' });
    expect(result.findings[0]?.message).toContain('a -> b -> a');
    expect(result.items.map((r) => r.start)).toEqual([undefined, undefined, undefined]);
  });

  test('a clip following itself is a cycle', () => {
    expect(resolveTiming([{ id: 'a', start: 'a', duration: 1 }]).findings[0]?.message).toContain('a -> a');
  });

  test('following a clip without a duration is an error', () => {
    expect(rules([{ id: 'v', start: '0' }, { start: 'v' }])).toEqual(['error timing/missing-duration #1']);
    expect(resolveTiming([{ id: 'v', start: '0' }, { start: 'v' }]).findings[0]?.target).toBe(0);
  });

  test('an unparseable start is an error', () => {
    expect(rules([{ start: '1.5s' }, { start: '-2' }])).toEqual(['error timing/invalid-start #0', 'error timing/invalid-start #1']);
  });

  test('overlaps on one track are warnings; touching clips and other tracks are fine', () => {
    const result = resolveTiming([
      { id: 'a', start: '0', duration: 2, trackIndex: 0 },
      { id: 'b', start: 'a', duration: 2, trackIndex: 0 },
      { id: 'c', start: '1', duration: 2, trackIndex: 0 },
      { id: 'd', start: '1', duration: 2, trackIndex: 1 },
      { id: 'e', start: '1', duration: 2 },
    ]);
    expect(result.findings.map((f) => `${f.severity} ${f.rule} #${f.index}`)).toEqual([
      'warning timing/overlap #2',
      'warning timing/overlap #1',
    ]);
    expect(result.findings[0]?.message).toContain('data-track-index 0');
    expect(result.findings.map((f) => f.target)).toEqual([0, 2]);
  });

  test('describe names items without an id', () => {
    const result = resolveTiming([{ start: 'nope' }], { describe: () => '<video> at 3:1' });
    expect(result.findings[0]?.message).toContain('<video> at 3:1');
  });
});
