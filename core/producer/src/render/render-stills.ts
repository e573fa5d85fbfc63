import { mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { frameTime, SeekframeError, stillFrame, type StillAt } from '@seekframe/composition';
import { removeTemp, tempPathFor } from '@seekframe/engine';
import type { RenderPlan, RenderVersions } from '../plan/render-plan.js';
import type { Fps } from '../plan/render-spec.js';
import { parseStillOptions, stillOutputs, type StillOptions, type StillOptionsInput } from '../plan/still-options.js';
import { ProblemLog } from '../serve/problem-log.js';
import { planRenderSession } from './plan-render.js';
import { eventSink, type RenderContext } from './render-context.js';
import type { RenderEventListener, RenderStill } from './render-events.js';
import { renderSessionFrames } from './render-frames.js';
import { guardedRender } from './render-guards.js';

export interface StillsResult {
  /** One per `at`, in the order asked (two times on the same frame share its file). */
  stills: RenderStill[];
  durationMs: number;
  fps: Fps;
  /** Pixels of each PNG (the composition's size times --scale). */
  width: number;
  height: number;
  captureMode: RenderPlan['captureMode'];
  versions: RenderVersions;
}

/**
 * `seekframe still`: frames of a composition as PNG files, each the very file a `png-sequence`
 * render writes for that frame. The same plan (format png-sequence, one worker) and the same
 * capture and encoder as that render, through renderSessionFrames' `stills` target: only the
 * asked frames are captured, by one browser (the plan step's page), and `<video>` clips are
 * decoded only from the first still to the last.
 * A time shows the frame on screen at that time. Events as renderComposition's; the `complete`
 * event lists the files. Nothing is left half-written: the PNGs are encoded into a hidden folder
 * beside the outputs and each is renamed into place.
 */
export async function renderStills(
  input: StillOptionsInput | StillOptions,
  onEvent?: RenderEventListener,
  context: RenderContext = {},
): Promise<StillsResult> {
  const startedAt = Date.now();
  const emit = eventSink({ onEvent: context.onEvent ?? onEvent });
  const problems = context.problems ?? new ProblemLog();
  return guardedRender(context, emit, problems, async (start) => {
    const { signal: optionSignal, at, output, ...fields } = parseStillOptions(input);
    const { guards, signal, cleanup } = start(fields.limits, optionSignal);

    // The whole composition is planned (its length may be known only once the page ran its
    // timeline), as a png-sequence render plans it; only the stills are captured.
    const { plan, session } = await planRenderSession(
      { ...fields, format: 'png-sequence', workers: 1 },
      { ...guards.context, onEvent: emit, signal, problems },
      cleanup,
      { keepPage: true, signal, capturedFrames: at.length },
    );
    const frames = at.map((still) => stillFrameOf(still, plan));
    const unique = [...new Set(frames)];
    const files = stillOutputs(fields.projectDir, output, unique, plan.totalFrames - 1, at.length > 1);
    // Beside the outputs, so each PNG is renamed into place (atomic, never across file systems).
    await mkdir(path.dirname(files[0]!), { recursive: true });
    const folder = tempPathFor(path.join(path.dirname(files[0]!), 'stills'));
    cleanup.add(() => removeTemp(folder));
    // The range from the first still to the last: a <video> clip is decoded only for those frames.
    await renderSessionFrames(
      plan,
      { start: Math.min(...unique), end: Math.max(...unique) + 1 },
      { kind: 'stills', path: folder, frames: unique },
      session,
      signal,
    );
    const written = new Map<number, { output: string; size: number }>();
    for (const [i, frame] of unique.entries()) {
      const encoded = path.join(folder, `frame_${String(i + 1).padStart(6, '0')}.png`);
      const target = files[i]!;
      await rename(encoded, target);
      written.set(frame, { output: target, size: (await stat(target)).size });
    }
    const stills: RenderStill[] = frames.map((frame, i) => ({
      at: at[i]!,
      frame,
      time: frameTime(frame, plan.fps),
      ...written.get(frame)!,
    }));
    const result: StillsResult = {
      stills,
      durationMs: Date.now() - startedAt,
      fps: plan.fps,
      width: Math.round(plan.width * (plan.scale ?? 1)),
      height: Math.round(plan.height * (plan.scale ?? 1)),
      captureMode: plan.captureMode,
      versions: plan.versions,
    };
    emit({
      type: 'complete',
      output: stills[0]!.output,
      size: [...written.values()].reduce((sum, file) => sum + file.size, 0),
      durationMs: result.durationMs,
      videoDuration: 0,
      versions: plan.versions,
      stills,
    });
    return result;
  });
}

/** The composition frame a still shows in this plan, or the invalid-options error naming the flag and the frames there are. */
function stillFrameOf(still: StillAt, plan: RenderPlan): number {
  const field = 'time' in still ? 'time (--time)' : 'frame (--frame)';
  const chosen = stillFrame(still, plan.fps, plan.totalFrames, field);
  if (chosen.ok) return chosen.value;
  throw new SeekframeError('invalid-options', `${plan.entry}: ${chosen.message}.`, {
    stage: 'config',
    details: { field: 'time' in still ? 'time' : 'frame', ...still, totalFrames: plan.totalFrames },
  });
}
