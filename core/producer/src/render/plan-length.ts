import { frameSpanProblem, SeekframeError, spanFrames, type CompositionMetadata, type FrameSpan } from '@seekframe/composition';
import { frameCount } from '../plan/frame-timing.js';
import { checkRenderLimits } from '../plan/render-limits.js';
import type { Fps, RenderSpec } from '../plan/render-spec.js';
import { emptyComposition } from './composition-length.js';

/** How long the output is, in frames, and whether that is known yet. */
export interface PlanLength {
  /** The length comes from the page's registered timeline (or animations): counted once the page is loaded. */
  readonly fromTimeline: boolean;
  /** Frames of the output (the --frames span, or the whole composition); 0 until counted. */
  totalFrames: number;
  /** Frames really captured: totalFrames, or fewer for stills; the limits and the workers count these. */
  readonly capturedFrames: number;
  /** Seconds of the whole composition (metadata's until the page tells otherwise). */
  compositionSeconds: number;
  /** Counts the frames of a composition `seconds` long and checks what depends on them (the span, the limits). */
  count(seconds: number): void;
}

/**
 * The load stage's length: counted at once from `data-duration`, or, for a length only the page's
 * timeline knows, later (`count`, once the media stage loaded it); the limits that do not depend on
 * the length (size, workers) are checked now either way.
 */
export function planLength(input: {
  spec: RenderSpec;
  metadata: CompositionMetadata;
  fps: Fps;
  size: { width: number; height: number };
  /** The entry file as the user names it, for messages. */
  source: string;
  entryFile: string;
  /** Stills: the frames that will really be captured (fewer than the plan's). */
  capturedFrames?: number | undefined;
}): PlanLength {
  const { spec, metadata, fps, size, source } = input;
  const checkLimits = (frames: number): void =>
    checkRenderLimits(spec.limits, { frames, width: size.width, height: size.height, workers: spec.workers, scale: spec.scale }, source);
  const length: PlanLength = {
    fromTimeline: metadata.durationSource === 'timeline' || metadata.durationSource === 'animations',
    totalFrames: 0,
    get capturedFrames() {
      return Math.min(input.capturedFrames ?? length.totalFrames, length.totalFrames);
    },
    compositionSeconds: metadata.duration,
    count(seconds) {
      length.compositionSeconds = seconds;
      const compositionFrames = frameCount(seconds, fps);
      if (compositionFrames < 1) throw emptyComposition(input.entryFile, metadata, seconds);
      // --frames: the output is that span; every count below (limits, workers, captions, chunks) is the output's.
      if (spec.frames) checkFrameSpan(spec.frames, compositionFrames, fps, source);
      length.totalFrames = spec.frames ? spanFrames(spec.frames) : compositionFrames;
      checkLimits(length.capturedFrames);
    },
  };
  if (length.fromTimeline) checkLimits(1);
  else length.count(metadata.duration);
  return length;
}

/** A span past the composition's last frame is refused with the valid numbers (the CLI's --frames, a body's frames). */
function checkFrameSpan(span: FrameSpan, compositionFrames: number, fps: Fps, source: string): void {
  const problem = frameSpanProblem(span, compositionFrames, 'frames (--frames)', fps.num / fps.den);
  if (!problem) return;
  throw new SeekframeError('invalid-options', `${source}: ${problem}.`, {
    stage: 'config',
    details: { field: 'frames', start: span.start, end: span.end, totalFrames: compositionFrames },
  });
}
