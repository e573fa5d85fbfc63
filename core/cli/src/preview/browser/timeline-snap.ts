/**
 * Where a dragged block lands: on whole frames, pulled to the nearest snap point (the playhead,
 * other blocks' edges, GSAP labels) when one is within `radiusPx` on screen. Pure, tested.
 */
import { frameAt, frameTime, type Fps } from '@seekframe/composition';

export type DragMode = 'move' | 'trim-start' | 'trim-end';

export interface DragInput {
  mode: DragMode;
  /** The block's first frame and its end frame (one past its last) before the drag. */
  startFrame: number;
  endFrame: number;
  /** Seconds the pointer moved. */
  delta: number;
  /** Snap points in seconds, and how far (px) one pulls at `pxPerSecond`. */
  snaps: readonly number[];
  pxPerSecond: number;
  radiusPx?: number;
  /** Frames in the composition: nothing moves past its end or before 0. */
  frameCount: number;
  fps: Fps;
}

export interface DragResult {
  startFrame: number;
  endFrame: number;
  /** The snap point the block's edge landed on, if one pulled it. */
  snappedTo: number | undefined;
}

/** The nearest snap point to `t` within the radius, else undefined. */
export function nearestSnap(t: number, snaps: readonly number[], pxPerSecond: number, radiusPx: number): number | undefined {
  let best: number | undefined;
  for (const s of snaps)
    if (Math.abs(s - t) * pxPerSecond <= radiusPx && (best === undefined || Math.abs(s - t) < Math.abs(best - t))) best = s;
  return best;
}

/** The frames a block covers after a drag of `delta` seconds (at least one frame long). */
export function dragFrames(input: DragInput): DragResult {
  const { fps, mode, startFrame, endFrame, snaps, pxPerSecond } = input;
  const radius = input.radiusPx ?? 6;
  const length = endFrame - startFrame;
  const frameOf = (t: number): number => frameAt(t + (0.5 * fps.den) / fps.num, fps);
  const pull = (edge: number): { t: number; snapped: number | undefined } => {
    const snapped = nearestSnap(edge, snaps, pxPerSecond, radius);
    return { t: snapped ?? edge, snapped };
  };
  if (mode === 'move') {
    const start = pull(frameTime(startFrame, fps) + input.delta);
    const end = pull(frameTime(endFrame, fps) + input.delta);
    // The edge nearer its snap point wins; without one, the start follows the pointer.
    const useEnd =
      end.snapped !== undefined &&
      (start.snapped === undefined ||
        Math.abs(end.t - frameTime(endFrame, fps) - input.delta) < Math.abs(start.t - frameTime(startFrame, fps) - input.delta));
    let first = useEnd ? frameOf(end.t) - length : frameOf(start.t);
    first = Math.max(0, Math.min(first, input.frameCount - 1));
    return { startFrame: first, endFrame: first + length, snappedTo: useEnd ? end.snapped : start.snapped };
  }
  if (mode === 'trim-start') {
    const start = pull(frameTime(startFrame, fps) + input.delta);
    const first = Math.max(0, Math.min(frameOf(start.t), endFrame - 1));
    return { startFrame: first, endFrame, snappedTo: start.snapped };
  }
  const end = pull(frameTime(endFrame, fps) + input.delta);
  const last = Math.max(startFrame + 1, Math.min(frameOf(end.t), input.frameCount));
  return { startFrame, endFrame: last, snappedTo: end.snapped };
}
