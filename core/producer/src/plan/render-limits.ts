import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';

/**
 * Bounds on the work of one render: the one definition the CLI (`seekframe render --max-*`),
 * the producer server (`seekframe serve --max-*`, PRODUCER_MAX_*) and later deploy targets share.
 * A render over a limit is refused before any browser starts; one that runs past its wall time
 * is cancelled with `render-timeout`.
 */

/** Flags and environment variables arrive as strings: "3" counts, "two" or "2.5" does not. */
const PositiveInteger = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ error: 'must be a whole number' }).int('must be a whole number').positive('must be at least 1'),
);

export const RenderLimitsSchema = z.strictObject({
  /** Most frames one render may have (duration x fps). */
  maxFrames: PositiveInteger.optional(),
  /** Longest wall time of one render, in seconds, from start to the finished file. */
  maxRenderSeconds: PositiveInteger.optional(),
  /** Most browser processes one render may ask for; `workers: auto` is capped to it. */
  maxWorkers: PositiveInteger.pipe(z.number().max(24, 'must be 1-24')).optional(),
  /** Most pixels per frame (width x height). */
  maxPixels: PositiveInteger.optional(),
});

export type RenderLimits = z.output<typeof RenderLimitsSchema>;
export type RenderLimitName = keyof RenderLimits;

/** Server defaults: 10 minutes of video at 30 fps, 15 minutes of wall time, 4 browsers, 4K UHD. */
export const SERVER_RENDER_LIMITS: Required<RenderLimits> = {
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
};

/** What a render will ask for, known once the composition's metadata is read. */
export interface RenderDemand {
  frames: number;
  width: number;
  height: number;
  /** A number the request asked for; 'auto' is capped, never refused. */
  workers: number | 'auto';
}

function raise(name: RenderLimitName): string {
  const { flag, env } = RENDER_LIMIT_SETTINGS[name];
  return `raise it with ${flag} (${env} for \`seekframe serve\`)`;
}

/** Throws `limit-exceeded` (stage config, details.limit) for the first limit the demand passes. */
export function checkRenderLimits(limits: RenderLimits | undefined, demand: RenderDemand, source: string): void {
  if (!limits) return;
  const over = (name: RenderLimitName, value: number, what: string, fix: string): never => {
    throw new SeekframeError('limit-exceeded', `${source}: ${what}, more than the limit of ${limits[name]} (${RENDER_LIMIT_SETTINGS[name].flag}). ${fix}, or ${raise(name)}.`, {
      stage: 'config',
      details: { limit: name, value, max: limits[name], flag: RENDER_LIMIT_SETTINGS[name].flag, env: RENDER_LIMIT_SETTINGS[name].env },
    });
  };
  if (limits.maxFrames !== undefined && demand.frames > limits.maxFrames) {
    over('maxFrames', demand.frames, `the render has ${demand.frames} frames`, 'Shorten data-duration or lower the fps');
  }
  const pixels = demand.width * demand.height;
  if (limits.maxPixels !== undefined && pixels > limits.maxPixels) {
    over('maxPixels', pixels, `a frame is ${demand.width}x${demand.height} = ${pixels} pixels`, 'Make data-width/data-height smaller');
  }
  if (limits.maxWorkers !== undefined && demand.workers !== 'auto' && demand.workers > limits.maxWorkers) {
    over('maxWorkers', demand.workers, `the request asks for ${demand.workers} workers`, 'Ask for fewer workers (or auto)');
  }
}

/** `workers: auto` (already resolved to a count) never exceeds maxWorkers. */
export function capWorkers(workers: number, limits: RenderLimits | undefined): number {
  return limits?.maxWorkers === undefined ? workers : Math.min(workers, limits.maxWorkers);
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
