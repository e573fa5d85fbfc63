import { describe, expect, it } from 'vitest';
import { SeekframeError } from './errors.js';
import { planBatch, type BatchPlanInput } from './batch-plan.js';
import type { VariableDeclaration } from './variable-declarations.js';

const declarations: VariableDeclaration[] = [
  { id: 'title', label: 'Title', type: 'string', default: 'Hi' },
  { id: 'count', label: 'Count', type: 'number', default: 1 },
];

function plan(batch: unknown, extra: Partial<BatchPlanInput> = {}) {
  return planBatch({
    batch,
    outputTemplate: 'out/{title}-{index}.mp4',
    resolveOutput: (output) => `/abs/${output}`,
    declarations,
    strictVariables: false,
    source: 'rows.json',
    ...extra,
  });
}

function problems(run: () => unknown): { index: number | null; reason: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SeekframeError);
    expect((error as SeekframeError).code).toBe('invalid-batch');
    expect((error as SeekframeError).message).toContain('rows.json');
    return (error as SeekframeError).details!.problems as { index: number | null; reason: string }[];
  }
  throw new Error('expected planBatch to throw');
}

describe('planBatch', () => {
  it('expands each row into a resolved output, keeping its variables', () => {
    expect(plan({ rows: [{ title: 'A b' }, { title: 'C', count: 2 }] })).toEqual([
      { index: 0, variables: { title: 'A b' }, output: '/abs/out/A-b-0.mp4' },
      { index: 1, variables: { title: 'C', count: 2 }, output: '/abs/out/C-1.mp4' },
    ]);
  });

  it('rejects a file that is not an array or {rows}, and an empty batch', () => {
    expect(problems(() => plan({ items: [] }))).toEqual([{ index: null, reason: expect.stringMatching(/JSON array of rows/) }]);
    expect(problems(() => plan([]))).toEqual([{ index: null, reason: expect.stringMatching(/no rows/) }]);
  });

  it('lists every bad row at once: not an object, null values, structure where a placeholder needs text', () => {
    const found = problems(() => plan([{ title: 'ok' }, 'text', { title: { nested: 1 } }, { title: 'x', count: null }, [1]]));
    expect(found.map((p) => p.index)).toEqual([1, 2, 3, 4]);
    expect(found[0]!.reason).toMatch(/not an object/);
    expect(found[1]!.reason).toMatch(/"title" is an object, which cannot fill the \{title\} placeholder/);
    expect(found[2]!.reason).toMatch(/"count" is null/);
  });

  it('a row may carry JSON for a structured variable (a transcript) that no placeholder uses', () => {
    const transcript = [{ text: 'Hi', start: 0, end: 1 }];
    expect(plan([{ title: 'a', transcript }])).toEqual([{ index: 0, variables: { title: 'a', transcript }, output: '/abs/out/a-0.mp4' }]);
  });

  it('names a row that lacks a placeholder key, and duplicate outputs', () => {
    const missing = problems(() => plan([{ title: 'a' }, { count: 3 }]));
    expect(missing).toEqual([{ index: 1, reason: expect.stringMatching(/no "title" for the \{title\} placeholder/) }]);
    const duplicate = problems(() => plan([{ title: 'a' }, { title: 'b' }, { title: 'a' }], { outputTemplate: 'out/{title}.mp4' }));
    expect(duplicate).toEqual([{ index: 2, reason: expect.stringMatching(/writes \/abs\/out\/a\.mp4, like row 0/) }]);
  });

  it('checks variables only under strictVariables', () => {
    const rows = [
      { title: 'a', count: 'three' },
      { title: 'b', extra: true },
    ];
    expect(plan(rows)).toHaveLength(2);
    const found = problems(() => plan(rows, { strictVariables: true }));
    expect(found).toEqual([
      { index: 0, reason: expect.stringMatching(/"count" must be a number/) },
      { index: 1, reason: expect.stringMatching(/"extra" is not declared/) },
    ]);
  });
});
