import type { RenderEvent } from '@seekframe/producer';
import type { FleetProgressEvent } from './follow-render.js';

export type FleetEventLike = FleetProgressEvent | { type: 'planned'; totalFrames: number } | { type: string };

/**
 * Turns a fleet render's events into the producer's RenderEvents (the CLI's progress bar, a
 * render API job's stage and progress): frames summed over every chunk's latest report, fps and
 * ETA over the render's wall time so far. Returns null for events that change nothing shown.
 */
export function fleetProgressEvents(now: () => number = Date.now): (event: FleetEventLike) => RenderEvent | null {
  const started = now();
  const frames = new Map<number, number>();
  let totalFrames = 0;
  return (event) => {
    if (event.type === 'planned') {
      totalFrames = (event as { totalFrames: number }).totalFrames;
      return { type: 'stage', stage: 'capture' };
    }
    if (event.type === 'assembling') return { type: 'stage', stage: 'finish' };
    if (event.type !== 'chunk-progress' && event.type !== 'chunk-done') return null;
    const chunk = event as Extract<FleetProgressEvent, { type: 'chunk-progress' | 'chunk-done' }>;
    frames.set(chunk.chunk, chunk.type === 'chunk-done' ? chunk.frames : chunk.framesRendered);
    const rendered = [...frames.values()].reduce((a, b) => a + b, 0);
    const seconds = (now() - started) / 1000;
    const fps = seconds > 0 ? rendered / seconds : 0;
    return {
      type: 'progress',
      stage: 'capture',
      framesRendered: rendered,
      totalFrames,
      percent: totalFrames ? (100 * rendered) / totalFrames : 0,
      fps,
      eta: fps > 0 ? (totalFrames - rendered) / fps : null,
    };
  };
}
