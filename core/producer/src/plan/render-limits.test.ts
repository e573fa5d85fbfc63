import { describe, expect, it } from 'vitest';
import { capWorkers, checkRenderLimits, RenderLimitsSchema, SERVER_RENDER_LIMITS } from './render-limits.js';
import { resolveServerConfig } from '../server/server-options.js';

describe('render limits', () => {
  it('passes a demand within every limit, and no limits at all', () => {
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 18_000, width: 3840, height: 2160, workers: 4 }, 'a.html')).not.toThrow();
    expect(() => checkRenderLimits(undefined, { frames: 1e9, width: 1e5, height: 1e5, workers: 24 }, 'a.html')).not.toThrow();
  });

  it('refuses each limit with a message naming it, its flag and variable', () => {
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 864_000, width: 10, height: 10, workers: 'auto' }, 'long/index.html')).toThrow(
      /long\/index\.html: the render has 864000 frames, more than the limit of 18000 \(--max-frames\)\..*PRODUCER_MAX_FRAMES/,
    );
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 1, width: 7680, height: 4320, workers: 1 }, 'a')).toThrow(/--max-pixels.*PRODUCER_MAX_PIXELS/);
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 1, width: 1, height: 1, workers: 24 }, 'a')).toThrow(/24 workers.*--max-workers/);
  });

  it('caps auto workers and parses flag strings', () => {
    expect(capWorkers(8, { maxWorkers: 2 })).toBe(2);
    expect(capWorkers(8, undefined)).toBe(8);
    expect(RenderLimitsSchema.parse({ maxFrames: '300' })).toEqual({ maxFrames: 300 });
    expect(RenderLimitsSchema.safeParse({ maxFrames: '2.5' }).success).toBe(false);
  });

  it('server: option, else PRODUCER_MAX_* variable, else the default; a bad variable is named', () => {
    const config = resolveServerConfig({ limits: { maxWorkers: 3 }, env: { PRODUCER_MAX_FRAMES: '600', PRODUCER_MAX_WORKERS: '9' } });
    expect(config.limits).toEqual({ ...SERVER_RENDER_LIMITS, maxFrames: 600, maxWorkers: 3 });
    expect(() => resolveServerConfig({ env: { PRODUCER_MAX_PIXELS: '0' } })).toThrow(/PRODUCER_MAX_PIXELS must be at least 1/);
  });
});
