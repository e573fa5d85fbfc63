import {
  GIF_MAX_SCALED_PIXELS,
  HLS_SEGMENT_SECONDS_DEFAULT,
  MAX_OUTPUT_SIDE,
  SeekframeError,
  type Fps,
  type OutputFormat,
} from '@seekframe/composition';

export interface OutputSize {
  width: number;
  height: number;
}

/**
 * The size of the encoded frames: the composition's CSS size times `--scale`. Refuses what no
 * encoder could take, each with the flag and the fix: a scale that gives fractions of a pixel,
 * a side over MAX_OUTPUT_SIDE, an odd size for H.264 that only the scale made odd, a scaled GIF
 * over GIF_MAX_SCALED_PIXELS. (`--max-pixels` is checked on this size by checkRenderLimits.)
 */
export function outputSize(format: OutputFormat, page: OutputSize, scale: number, source: string): OutputSize {
  // 90 x 1.3 is 117.00000000000001 in floating point: a size within a millionth of a pixel is whole.
  const whole = (value: number): number => (Math.abs(value - Math.round(value)) < 1e-6 ? Math.round(value) : value);
  const width = whole(page.width * scale);
  const height = whole(page.height * scale);
  const what = `${source} is ${page.width}x${page.height}; --scale ${scale} makes it ${round(width)}x${round(height)}`;
  if (!Number.isInteger(width) || !Number.isInteger(height)) {
    throw refused(`${what}, which is not a whole number of pixels. Use a scale that gives whole pixels (2, 3 or 4 always do).`, {
      width,
      height,
    });
  }
  if (width > MAX_OUTPUT_SIDE || height > MAX_OUTPUT_SIDE) {
    throw refused(
      `${what}, larger than ${MAX_OUTPUT_SIDE} pixels on a side, which the encoders take at most. Use --scale ${Math.floor(MAX_OUTPUT_SIDE / Math.max(page.width, page.height)) || 1} or less.`,
      { width, height },
    );
  }
  if (scale !== 1 && (format === 'mp4' || format === 'hls') && (width % 2 !== 0 || height % 2 !== 0)) {
    throw refused(
      `${what}; ${format} (H.264, yuv420p) needs an even width and height. Use a whole --scale, or render to mov, webm or png-sequence.`,
      { width, height },
    );
  }
  if (scale !== 1 && format === 'gif' && width * height > GIF_MAX_SCALED_PIXELS) {
    throw refused(
      `${what}, and a 256-colour GIF that large is tens of megabytes a second. Render a scaled video to mp4 or webm, or keep the GIF at --scale 1 (at most ${GIF_MAX_SCALED_PIXELS} pixels a frame when scaled).`,
      { width, height },
    );
  }
  return { width, height };
}

/** Frames in each hls segment: the asked length rounded to whole frames, at least one. */
export function hlsSegmentFrames(seconds: number | undefined, fps: Fps): number {
  return Math.max(1, Math.round(((seconds ?? HLS_SEGMENT_SECONDS_DEFAULT) * fps.num) / fps.den));
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function refused(message: string, details: Record<string, unknown>): SeekframeError {
  return new SeekframeError('invalid-options', message, { stage: 'config', details: { field: 'scale', ...details } });
}
