import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';

/**
 * Bounds on the work of one render: the one definition the CLI (`seekframe render --max-*`),
 * the producer server (`seekframe serve --max-*`, PRODUCER_MAX_*) and later deploy targets share.
 * A render over a limit is refused before any browser starts; one that runs past its wall time
 * is cancelled with `render-timeout`, one whose browsers outgrow its memory bound is stopped with
 * `memory-limit-exceeded` (render-guards.ts).
 */

/** Flags and environment variables arrive as strings: "3" counts, "two" or "2.5" does not. */
const PositiveInteger = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ error: 'must be a whole number' }).int('must be a whole number').positive('must be at least 1'),
);

/** Below this a browser cannot even open a page; above it the bound means nothing. */
export const MIN_MEMORY_MB = 256;
export const MAX_MEMORY_MB = 1024 * 1024;
/**
 * The memory bound when none is given (the CLI, batches, the server, the templates): this much
 * for each browser the render runs (its workers), so 1.5 GB with one worker and 6 GB with four.
 * Real compositions hold 130-320 MB per browser at 1080p and ~430 MB at 4K (bench/memory.ts),
 * so this is 3.5-5x that, and a runaway page is stopped long before it can take a machine.
 */
export const DEFAULT_MEMORY_PER_BROWSER_MB = 1536;
/** V8 cannot use more heap than its 4 GB pointer-compression cage in Chromium. */
const MAX_JS_HEAP_MB = 4096;

export const RenderLimitsSchema = z.strictObject({
  /** Most frames one render may have (duration x fps). */
  maxFrames: PositiveInteger.optional(),
  /** Longest wall time of one render, in seconds, from start to the finished file. */
  maxRenderSeconds: PositiveInteger.optional(),
  /** Most browser processes one render may ask for; `workers: auto` is capped to it. */
  maxWorkers: PositiveInteger.pipe(z.number().max(24, 'must be 1-24')).optional(),
  /** Most pixels per frame (width x height). */
  maxPixels: PositiveInteger.optional(),
  /**
   * Most memory the render's browsers may hold together, in MB (resident memory of all their
   * processes, without mapped files); a page's JavaScript heap is limited to half of it.
   * Unset = DEFAULT_MEMORY_PER_BROWSER_MB for each browser of the render.
   */
  maxMemoryMB: PositiveInteger.pipe(
    z.number().min(MIN_MEMORY_MB, `must be at least ${MIN_MEMORY_MB} (MB)`).max(MAX_MEMORY_MB, `must be at most ${MAX_MEMORY_MB} (MB)`),
  ).optional(),
});

export type RenderLimits = z.output<typeof RenderLimitsSchema>;
export type RenderLimitName = keyof RenderLimits;

/** Limits every server render has, with a fixed default; the memory bound's default is per browser (memoryBound). */
export type ServerRenderLimits = Required<Omit<RenderLimits, 'maxMemoryMB'>> & Pick<RenderLimits, 'maxMemoryMB'>;

/** Server defaults: 10 minutes of video at 30 fps, 15 minutes of wall time, 4 browsers, 4K UHD (and the default memory bound). */
export const SERVER_RENDER_LIMITS: ServerRenderLimits = {
  maxFrames: 18_000,
  maxRenderSeconds: 900,
  maxWorkers: 4,
  maxPixels: 3840 * 2160,
};

/** Where each limit is set: the same flag for `render` and `serve`, the variable for the server. */
export const RENDER_LIMIT_SETTINGS: Record<RenderLimitName, { flag: string; env: string }> = {
  maxFrames: { flag: '--max-frames', env: 'PRODUCER_MAX_FRAMES' },
  maxRenderSeconds: { flag: '--max-render-seconds', env: 'PRODUCER_MAX_RENDER_SECONDS' },
  maxWorkers: { flag: '--max-workers', env: 'PRODUCER_MAX_WORKERS' },
  maxPixels: { flag: '--max-pixels', env: 'PRODUCER_MAX_PIXELS' },
  maxMemoryMB: { flag: '--max-memory', env: 'PRODUCER_MAX_MEMORY_MB' },
};

/** What a render will ask for, known once the composition's metadata is read. */
export interface RenderDemand {
  frames: number;
  width: number;
  height: number;
  /** A number the request asked for; 'auto' is capped, never refused. */
  workers: number | 'auto';
  /** --scale the width and height already include (named in the fix when the pixels are over). */
  scale?: number;
}

function raise(name: RenderLimitName): string {
  const { flag, env } = RENDER_LIMIT_SETTINGS[name];
  return `raise it with ${flag} (${env} for \`seekframe serve\`)`;
}

/** Throws `limit-exceeded` (stage config, details.limit) for the first limit the demand passes. */
export function checkRenderLimits(limits: RenderLimits | undefined, demand: RenderDemand, source: string): void {
  if (!limits) return;
  const over = (name: RenderLimitName, value: number, what: string, fix: string): never => {
    throw new SeekframeError(
      'limit-exceeded',
      `${source}: ${what}, more than the limit of ${limits[name]} (${RENDER_LIMIT_SETTINGS[name].flag}). ${fix}, or ${raise(name)}.`,
      {
        stage: 'config',
        details: { limit: name, value, max: limits[name], flag: RENDER_LIMIT_SETTINGS[name].flag, env: RENDER_LIMIT_SETTINGS[name].env },
      },
    );
  };
  if (limits.maxFrames !== undefined && demand.frames > limits.maxFrames) {
    over('maxFrames', demand.frames, `the render has ${demand.frames} frames`, 'Shorten data-duration or lower the fps');
  }
  const pixels = demand.width * demand.height;
  if (limits.maxPixels !== undefined && pixels > limits.maxPixels) {
    const scaled = demand.scale !== undefined && demand.scale !== 1;
    over(
      'maxPixels',
      pixels,
      `a frame is ${demand.width}x${demand.height} = ${pixels} pixels${scaled ? ` (with --scale ${demand.scale})` : ''}`,
      scaled ? 'Use a smaller --scale' : 'Make data-width/data-height smaller',
    );
  }
  if (limits.maxWorkers !== undefined && demand.workers !== 'auto' && demand.workers > limits.maxWorkers) {
    over('maxWorkers', demand.workers, `the request asks for ${demand.workers} workers`, 'Ask for fewer workers (or auto)');
  }
}

/** For each limit the smaller of the two (a host's limits on top of a plan's); undefined when both are. */
export function stricterLimits(a: RenderLimits | undefined, b: RenderLimits | undefined): RenderLimits | undefined {
  if (!a || !b) return a ?? b;
  const names = new Set([...Object.keys(a), ...Object.keys(b)] as RenderLimitName[]);
  return Object.fromEntries(
    [...names].map((name) => [name, a[name] === undefined ? b[name] : b[name] === undefined ? a[name] : Math.min(a[name]!, b[name]!)]),
  ) as RenderLimits;
}

/** `workers: auto` (already resolved to a count) never exceeds maxWorkers. */
export function capWorkers(workers: number, limits: RenderLimits | undefined): number {
  return limits?.maxWorkers === undefined ? workers : Math.min(workers, limits.maxWorkers);
}

/** A render's memory bound: its own total, else the default for each of its browsers. */
export type MemoryBound = { totalMB: number } | { perBrowserMB: number };

export function memoryBound(limits: RenderLimits | undefined): MemoryBound {
  return limits?.maxMemoryMB === undefined ? { perBrowserMB: DEFAULT_MEMORY_PER_BROWSER_MB } : { totalMB: limits.maxMemoryMB };
}

/**
 * V8's heap limit for each page of a render: half its memory bound (of one browser's share by
 * default), so a growing heap fails as such, at once, before the whole bound is used.
 */
export function jsHeapLimitMB(bound: MemoryBound): number {
  return Math.min(MAX_JS_HEAP_MB, Math.floor(('totalMB' in bound ? bound.totalMB : bound.perBrowserMB) / 2));
}

/** The error a render gets when its browsers cross the memory bound (it is stopped like a cancel, its browsers killed). */
export function memoryLimitError(usage: {
  kind: 'rss' | 'js-heap';
  usedBytes: number;
  maxBytes: number;
  jsHeapLimitMB: number | undefined;
  browsers: number;
  perBrowser: boolean;
}): SeekframeError {
  const { flag, env } = RENDER_LIMIT_SETTINGS.maxMemoryMB;
  const maxMB = Math.round(usage.maxBytes / 2 ** 20);
  const usedMB = Math.round(usage.usedBytes / 2 ** 20);
  const what =
    usage.kind === 'js-heap'
      ? `A page's JavaScript heap reached its limit of ${usage.jsHeapLimitMB} MB (half the memory bound, ${flag})`
      : `The render's ${usage.browsers === 1 ? 'browser' : `${usage.browsers} browsers`} used ${usedMB} MB, more than its memory bound of ${maxMB} MB (${flag}${usage.perBrowser ? `, by default ${DEFAULT_MEMORY_PER_BROWSER_MB} MB per browser` : ''})`;
  return new SeekframeError(
    'memory-limit-exceeded',
    `${what}; the render was stopped and no output was written. A script that keeps allocating (a growing array, ArrayBuffers or canvases it never lets go) does this: ` +
      `fix the composition, or render with fewer --workers or fewer pixels, or ${raise('maxMemoryMB')}.`,
    {
      stage: 'capture',
      retryable: false,
      details: {
        limit: 'maxMemoryMB',
        kind: usage.kind,
        usedMB,
        max: maxMB,
        browsers: usage.browsers,
        jsHeapLimitMB: usage.jsHeapLimitMB,
        flag,
        env,
      },
    },
  );
}

/** The error a render gets when it runs past maxRenderSeconds (it is cancelled cleanly). */
export function renderTimeoutError(seconds: number): SeekframeError {
  return new SeekframeError(
    'render-timeout',
    `The render ran longer than the limit of ${seconds} s (${RENDER_LIMIT_SETTINGS.maxRenderSeconds.flag}) and was cancelled; no output was written. ` +
      `Render fewer frames or fewer pixels, or ${raise('maxRenderSeconds')}.`,
    { stage: 'capture', retryable: false, details: { limit: 'maxRenderSeconds', max: seconds } },
  );
}
