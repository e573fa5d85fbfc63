import { SeekframeError } from '@seekframe/composition';
import { describe, expect, it } from 'vitest';
import { AssembleJobDataSchema, ChunkJobDataSchema, chunkJobId, errorFromFailedReason, jobError, parseJobData } from './fleet-jobs.js';

const hash = 'a'.repeat(64);

describe('fleet jobs', () => {
  it('accepts a chunk job of a render and names every problem of a malformed one (invalid-job)', () => {
    expect(parseJobData(ChunkJobDataSchema, 'chunk', 'j', { renderId: '0mx0ysaba-0rd6qli3ug', planHash: hash, chunk: 2 })).toEqual({
      renderId: '0mx0ysaba-0rd6qli3ug',
      planHash: hash,
      chunk: 2,
    });
    try {
      parseJobData(ChunkJobDataSchema, 'chunk', 'j', { renderId: '../etc', planHash: 'x', chunk: 1.5, extra: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SeekframeError);
      expect((error as SeekframeError).code).toBe('invalid-job');
      expect((error as SeekframeError).details?.problems).toHaveLength(4);
    }
    expect(() => parseJobData(AssembleJobDataSchema, 'assemble', 'j', 'text')).toThrow(/not a Seekframe job/);
  });

  it("a job's error crosses the queue as data: its code comes back; a reason that is not ours is wrapped", () => {
    const error = new SeekframeError('page-script-error', 'broken at 2 s', { stage: 'capture' });
    expect(errorFromFailedReason(jobError(error.toJSON()).message, 'chunk 1').code).toBe('page-script-error');
    expect(errorFromFailedReason('child bull:seekframe:x failed', 'chunk 1')).toMatchObject({ code: 'render-failed' });
    expect(chunkJobId('r', 12)).toBe('r-c00012');
  });
});
