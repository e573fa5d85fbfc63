import { describe, expect, it } from 'vitest';
import { aslBlocks, toStateMachineDefinition } from './asl-blocks.js';
import { buildRenderWorkflow } from './state-machine.js';
import { RETRY_TABLE } from '../retry/retry-table.js';

const definition = (maxConcurrency = 10) =>
  toStateMachineDefinition(
    buildRenderWorkflow(aslBlocks, {
      functions: { plan: 'PlanFn', renderChunk: 'RenderChunkFn', assemble: 'AssembleFn', fail: 'FailFn' },
      maxConcurrency,
      timeouts: { plan: 300, renderChunk: 930, assemble: 900 },
    }),
  );

describe('render workflow definition', () => {
  it('matches the snapshot', () => {
    expect(definition()).toMatchSnapshot();
  });

  it('runs plan -> map over chunks -> assemble, and every failure goes through RecordFailure to Failed', () => {
    const d = definition();
    const states = d.States as Record<string, Record<string, unknown>>;
    expect(d.StartAt).toBe('Start');
    expect(states.Start!.Next).toBe('Plan');
    expect(states.Plan!.Next).toBe('RenderChunks');
    expect(states.RenderChunks!.Next).toBe('Assemble');
    expect(states.Assemble!.End).toBe(true);
    for (const name of ['Plan', 'RenderChunks', 'Assemble'])
      expect(states[name]!.Catch).toEqual([{ ErrorEquals: ['States.ALL'], Next: 'RecordFailure' }]);
    expect(states.RecordFailure!.Next).toBe('Failed');
    expect(states.Failed!.Type).toBe('Fail');
  });

  it('applies the retry table: typed fatal errors first with 0 attempts, States.ALL last', () => {
    const states = definition().States as Record<string, Record<string, unknown>>;
    const map = states.RenderChunks as {
      ItemProcessor: { States: Record<string, { Retry: { ErrorEquals: string[]; MaxAttempts: number }[]; TimeoutSeconds: number }> };
    };
    const retry = map.ItemProcessor.States.RenderChunk!.Retry;
    expect(retry[0]).toMatchObject({ ErrorEquals: ['Seekframe.Fatal'], MaxAttempts: 0 });
    expect(retry.find((r) => r.ErrorEquals.includes('Lambda.TooManyRequestsException'))!.MaxAttempts).toBe(
      RETRY_TABLE.throttled.maxAttempts,
    );
    expect(retry.find((r) => r.ErrorEquals.includes('States.Timeout'))!.MaxAttempts).toBe(1);
    expect(retry.at(-1)!.ErrorEquals).toEqual(['States.ALL']);
    expect(map.ItemProcessor.States.RenderChunk!.TimeoutSeconds).toBe(930);
  });

  it('caps the Map at the inline limit of 40', () => {
    const states = definition(500).States as Record<string, { MaxConcurrency?: number }>;
    expect(states.RenderChunks!.MaxConcurrency).toBe(40);
  });
});
