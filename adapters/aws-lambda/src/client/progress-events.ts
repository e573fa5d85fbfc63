import type { DistributedProgress } from '../progress/aggregate-progress.js';

/**
 * Turns successive progress answers into the event objects of a local render (`stage`,
 * `progress`, `warning`), so `seekframe lambda render` shows the same bar and `--json` lines.
 * Stages: plan -> `load`, render -> `capture`, assemble -> `finish`.
 */
export type LambdaRenderEvent =
  | { type: 'stage'; stage: 'load' | 'capture' | 'finish' }
  | { type: 'progress'; stage: 'capture'; framesRendered: number; totalFrames: number; percent: number; fps: number; eta: number | null }
  | { type: 'warning'; code: string; message: string; details?: Record<string, unknown> }
  | { type: 'cost'; cost: DistributedProgress['cost']; chunks: DistributedProgress['chunks'] };

const STAGES = { plan: 'load', render: 'capture', assemble: 'finish', done: 'finish' } as const;

export function createProgressTranslator(now: () => number = Date.now): (progress: DistributedProgress) => LambdaRenderEvent[] {
  let stage: string | null = null;
  let frames = -1;
  let warned = false;
  let captureStart: number | null = null;
  return (p) => {
    const events: LambdaRenderEvent[] = [];
    const next = STAGES[p.stage];
    if (next !== stage) {
      stage = next;
      events.push({ type: 'stage', stage: next });
      if (next === 'capture') captureStart = now();
    }
    if (p.totalFrames !== null && p.framesRendered !== frames && (p.stage === 'render' || p.stage === 'done')) {
      frames = p.framesRendered;
      const seconds = captureStart === null ? 0 : (now() - captureStart) / 1000;
      const fps = seconds > 0 ? frames / seconds : 0;
      events.push({
        type: 'progress',
        stage: 'capture',
        framesRendered: frames,
        totalFrames: p.totalFrames,
        percent: p.totalFrames ? (100 * frames) / p.totalFrames : 0,
        fps,
        eta: fps > 0 ? (p.totalFrames - frames) / fps : null,
      });
    }
    if (p.warning && !warned) {
      warned = true;
      events.push({ type: 'warning', code: 'lambda/timeout-risk', message: p.warning, details: { slowestChunkMs: p.slowestChunkMs } });
    }
    return events;
  };
}
