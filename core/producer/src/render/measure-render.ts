import { stat } from 'node:fs/promises';
import { sampleProcessTree, type RenderTuning } from '@seekframe/engine';
import { renderComposition } from './render-composition.js';
import type { RenderOptionsInput } from '../plan/render-options.js';
import type { RenderResult } from './render-events.js';

/** What one render cost, per frame, split by process class (bench scripts and `seekframe benchmark`). */
export interface RenderMeasurement {
  result: RenderResult;
  frames: number;
  wallSeconds: number;
  fps: number;
  /** CPU seconds per frame in the browsers (capture), ffmpeg (encode) and this Node process. */
  captureCpuPerFrame: number;
  encodeCpuPerFrame: number;
  nodeCpuPerFrame: number;
  /** Share of the machine's cores the render left unused, and the share other processes used. */
  idleFraction: number;
  othersFraction: number;
  peakMemoryMB: number;
  /** Peak memory of the render's browsers alone (what --max-memory bounds). */
  browserMemoryMB: number;
  outputBytes: number;
}

/**
 * Renders once through the normal path while sampling the process tree, optionally under
 * benchmark speed settings. One measuring routine, so the benchmark command and the bench
 * scripts report the same figures the same way.
 */
export async function measureRender(options: RenderOptionsInput, tuning?: RenderTuning): Promise<RenderMeasurement> {
  const stop = sampleProcessTree();
  // The tuning goes in the render context: exactly what the render uses, nothing read on the side.
  const result = await renderComposition(options, undefined, tuning ? { tuning } : {});
  const usage = stop();
  const frames = Math.min(result.frames, tuning?.maxFrames ?? Infinity);
  const perFrame = (seconds: number): number => (frames > 0 ? seconds / frames : 0);
  return {
    result,
    frames,
    wallSeconds: usage.wallSeconds,
    fps: frames / usage.wallSeconds,
    captureCpuPerFrame: perFrame(usage.cpuSeconds.browser),
    encodeCpuPerFrame: perFrame(usage.cpuSeconds.ffmpeg),
    nodeCpuPerFrame: perFrame(usage.cpuSeconds.node),
    idleFraction: usage.idleFraction,
    othersFraction: usage.othersFraction,
    peakMemoryMB: usage.peakRssBytes / 2 ** 20,
    browserMemoryMB: result.browserMemoryMB,
    outputBytes: (await stat(result.output)).size,
  };
}
