import { describe, expect, it } from 'vitest';
import { jobPaths, renderArgs } from './render-command.js';

describe('renderArgs', () => {
  it('JSON progress lines, --workers auto, no GPU, the network sandbox, the API limits and the request options', () => {
    const job = {
      id: 'a/b..c',
      request: { variables: { x: 1 }, format: 'webm' as const, quality: 'draft' as const, fps: 24 },
      outputKey: 'renders/x.webm',
      contentType: 'video/webm',
      limits: { maxFrames: 100, maxRenderSeconds: 60, maxPixels: 1000 },
    };
    const paths = jobPaths(job);
    expect(paths).toEqual({
      dir: 'jobs/a_b__c',
      project: 'jobs/a_b__c/project',
      variables: 'jobs/a_b__c/variables.json',
      output: 'jobs/a_b__c/out.webm',
    });
    expect(renderArgs(job, paths).join(' ')).toBe(
      'render jobs/a_b__c/project --output jobs/a_b__c/out.webm --format webm --json --workers auto --no-browser-gpu --network sandboxed --variables-file jobs/a_b__c/variables.json --strict-variables --max-frames 100 --max-render-seconds 60 --max-pixels 1000 --quality draft --fps 24',
    );
    expect(renderArgs({ ...job, limits: { ...job.limits, maxMemoryMB: 3000 } }, paths).join(' ')).toContain(
      '--max-pixels 1000 --max-memory 3000 --quality draft',
    );
  });

  it('a still writes out.png with seekframe still; a span passes --frames', () => {
    const job = {
      id: 's',
      request: { variables: {}, format: 'mp4' as const, quality: 'high' as const, still: { frame: 4 } },
      outputKey: 'renders/s.png',
      contentType: 'image/png',
      limits: { maxFrames: 100, maxRenderSeconds: 60, maxPixels: 1000 },
    };
    const paths = jobPaths(job);
    expect(paths.output).toBe('jobs/s/out.png');
    expect(renderArgs(job, paths).join(' ')).toBe(
      'still jobs/s/project --output jobs/s/out.png --frame 4 --json --network sandboxed --variables-file jobs/s/variables.json --strict-variables --max-frames 100 --max-render-seconds 60 --max-pixels 1000',
    );
    const span = { ...job, request: { variables: {}, format: 'mp4' as const, frames: { start: 0, end: 9 } } };
    expect(renderArgs(span, jobPaths(span)).join(' ')).toContain(' --frames 0-9');
  });
});
