import { assembleStep, getJson, putJson, renderKeys } from '@seekframe/producer/distributed';
import { completedData, sendRenderEvent } from '../webhooks/render-webhook-events.js';
import type { AssembleProgress, FinalStatus } from '../progress/progress-records.js';
import type { AssembleOutput, HandlerDeps } from './handler-deps.js';
import { runStep } from './run-step.js';

export interface AssembleEvent {
  renderId: string;
  planHash: string;
  attempt?: number;
}

/**
 * The core's assemble step on Lambda (concat without re-encoding, the once-mixed audio, the
 * frame count checked, the output uploaded), between its progress objects, then status.json
 * and the render.completed webhook. A second run after success answers from status.json.
 */
export function assembleHandler(deps: HandlerDeps, event: AssembleEvent): Promise<AssembleOutput> {
  const attempt = Number(event.attempt ?? 0);
  return runStep(deps, { renderId: event.renderId, step: 'assemble', attempt }, async () => {
    const now = deps.now ?? Date.now;
    const started = now();
    const keys = renderKeys(event.renderId);
    const status = await getJson<FinalStatus>(deps.store, keys.status);
    if (status?.status === 'completed' && status.output) return { renderId: event.renderId, output: status.output };
    const progress = (done: boolean): AssembleProgress => ({
      step: 'assemble',
      done,
      startedAt: new Date(started).toISOString(),
      updatedAt: new Date(now()).toISOString(),
      memoryMb: deps.memoryMb,
      durationMs: now() - started,
    });
    await putJson(deps.store, keys.assembleProgress, progress(false));
    const { timings: _timings, ...output } = await assembleStep(deps, { renderId: event.renderId, planHash: event.planHash });
    const final: FinalStatus = { status: 'completed', finishedAt: new Date(now()).toISOString(), output };
    await putJson(deps.store, keys.assembleProgress, progress(true));
    await putJson(deps.store, keys.status, final);
    // The render is recorded as completed first; the webhook cannot change that.
    await sendRenderEvent(deps, event.renderId, 'render.completed', () => completedData(deps, event.renderId, output, final.finishedAt));
    return { renderId: event.renderId, output };
  });
}
