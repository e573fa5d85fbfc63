import { describe, expect, it } from 'vitest';
import {
  capWorkers,
  checkRenderLimits,
  DEFAULT_MEMORY_PER_BROWSER_MB,
  jsHeapLimitMB,
  memoryBound,
  memoryLimitError,
  RenderLimitsSchema,
  SERVER_RENDER_LIMITS,
} from './render-limits.js';
import { resolveServerConfig } from '../server/server-options.js';

describe('render limits', () => {
  it('passes a demand within every limit, and no limits at all', () => {
    expect(() =>
      checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 18_000, width: 3840, height: 2160, workers: 4 }, 'a.html'),
    ).not.toThrow();
    expect(() => checkRenderLimits(undefined, { frames: 1e9, width: 1e5, height: 1e5, workers: 24 }, 'a.html')).not.toThrow();
  });

  it('refuses each limit with a message naming it, its flag and variable', () => {
    expect(() =>
      checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 864_000, width: 10, height: 10, workers: 'auto' }, 'long/index.html'),
    ).toThrow(/long\/index\.html: the render has 864000 frames, more than the limit of 18000 \(--max-frames\)\..*PRODUCER_MAX_FRAMES/);
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 1, width: 7680, height: 4320, workers: 1 }, 'a')).toThrow(
      /--max-pixels.*PRODUCER_MAX_PIXELS/,
    );
    expect(() => checkRenderLimits(SERVER_RENDER_LIMITS, { frames: 1, width: 1, height: 1, workers: 24 }, 'a')).toThrow(
      /24 workers.*--max-workers/,
    );
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

  it('memory: a total when given, else the default for each browser; the heap gets half; the error names the flag and the variable', () => {
    expect(memoryBound(undefined)).toEqual({ perBrowserMB: DEFAULT_MEMORY_PER_BROWSER_MB });
    expect(memoryBound({ maxMemoryMB: 600 })).toEqual({ totalMB: 600 });
    expect(jsHeapLimitMB({ totalMB: 600 })).toBe(300);
    expect(jsHeapLimitMB({ perBrowserMB: DEFAULT_MEMORY_PER_BROWSER_MB })).toBe(DEFAULT_MEMORY_PER_BROWSER_MB / 2);
    // V8's heap cannot grow past its 4 GB cage: a larger bound does not pretend otherwise.
    expect(jsHeapLimitMB({ totalMB: 64 * 1024 })).toBe(4096);
    expect(RenderLimitsSchema.parse({ maxMemoryMB: '2048' })).toEqual({ maxMemoryMB: 2048 });
    expect(RenderLimitsSchema.safeParse({ maxMemoryMB: '100' }).error?.issues[0]?.message).toBe('must be at least 256 (MB)');
    const rss = memoryLimitError({
      kind: 'rss',
      usedBytes: 700 * 2 ** 20,
      maxBytes: 600 * 2 ** 20,
      jsHeapLimitMB: 300,
      browsers: 2,
      perBrowser: false,
    });
    expect(rss.code).toBe('memory-limit-exceeded');
    expect(rss.message).toMatch(
      /^The render's 2 browsers used 700 MB, more than its memory bound of 600 MB \(--max-memory\); the render was stopped and no output was written\..*--max-memory \(PRODUCER_MAX_MEMORY_MB/,
    );
    expect(rss.details).toMatchObject({
      limit: 'maxMemoryMB',
      kind: 'rss',
      usedMB: 700,
      max: 600,
      browsers: 2,
      env: 'PRODUCER_MAX_MEMORY_MB',
    });
    const byDefault = memoryLimitError({
      kind: 'rss',
      usedBytes: 1600 * 2 ** 20,
      maxBytes: 1536 * 2 ** 20,
      jsHeapLimitMB: 768,
      browsers: 1,
      perBrowser: true,
    });
    expect(byDefault.message).toMatch(
      /browser used 1600 MB, more than its memory bound of 1536 MB \(--max-memory, by default 1536 MB per browser\)/,
    );
    const heap = memoryLimitError({
      kind: 'js-heap',
      usedBytes: 0,
      maxBytes: 600 * 2 ** 20,
      jsHeapLimitMB: 300,
      browsers: 1,
      perBrowser: false,
    });
    expect(heap.message).toMatch(/^A page's JavaScript heap reached its limit of 300 MB \(half the memory bound, --max-memory\)/);
  });

  it('server: no memory bound by default (each render gets the default per browser), PRODUCER_MAX_MEMORY_MB sets one', () => {
    expect(resolveServerConfig({ env: {} }).limits.maxMemoryMB).toBeUndefined();
    expect(resolveServerConfig({ env: { PRODUCER_MAX_MEMORY_MB: '3000' } }).limits.maxMemoryMB).toBe(3000);
    expect(resolveServerConfig({ limits: { maxMemoryMB: '900' }, env: { PRODUCER_MAX_MEMORY_MB: '3000' } }).limits.maxMemoryMB).toBe(900);
    expect(() => resolveServerConfig({ env: { PRODUCER_MAX_MEMORY_MB: '12' } })).toThrow(
      /PRODUCER_MAX_MEMORY_MB must be at least 256 \(MB\)/,
    );
  });
});
