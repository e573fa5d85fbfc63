import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { frameCount, frameTime, inspectComposition, SeekframeError, stillFrame, type StillAt } from '@seekframe/composition';
import { removeTemp, tempPathFor } from '@seekframe/engine';
import { defaultFps } from '../plan/frame-timing.js';
import type { RenderVersions } from '../plan/render-plan.js';
import type { Fps } from '../plan/render-spec.js';
import { parseStillOptions, stillOutputs, type StillOptions, type StillOptionsInput } from '../plan/still-options.js';
import { ProblemLog } from '../serve/problem-log.js';
import { resolveProject } from '../serve/resolve-project.js';
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
  captureMode: 'beginframe' | 'screenshot';
  versions: RenderVersions;
}

/**
 * `seekframe still`: frames of a composition as PNG files, each the very file a `png-sequence`
 * render writes for that frame. The same plan (format png-sequence, the span from the first
 * still to the last as `frames`) and the same capture and encoder as that render, through
 * renderSessionFrames' `stills` target: only the asked frames are captured, by one browser.
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

    const chosen = await chooseFrames(fields.projectDir, fields.fps, at);
    const unique = [...new Set(chosen.frames)];
    const span = { start: Math.min(...unique), end: Math.max(...unique) };
    const files = stillOutputs(fields.projectDir, output, unique, chosen.lastFrame, at.length > 1);
    const { plan, session } = await planRenderSession(
      { ...fields, format: 'png-sequence', workers: 1, frames: span },
      { ...guards.context, onEvent: emit, signal, problems },
      cleanup,
      { keepPage: true, signal, capturedFrames: unique.length },
    );
    // Beside the outputs, so each PNG is renamed into place (atomic, never across file systems).
    await mkdir(path.dirname(files[0]!), { recursive: true });
    const folder = tempPathFor(path.join(path.dirname(files[0]!), 'stills'));
    cleanup.add(() => removeTemp(folder));
    await renderSessionFrames(
      plan,
      { start: 0, end: plan.totalFrames },
      { kind: 'stills', path: folder, frames: unique.map((frame) => frame - span.start) },
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
    const stills: RenderStill[] = chosen.frames.map((frame, i) => ({
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

/**
 * The frame each still shows, known before planning (the span and the limits need it): the
 * entry's fps and length as lint reads them. A composition too broken to have a length is left
 * to the plan step, which reports it with the lint findings.
 */
async function chooseFrames(
  projectDir: string,
  fpsOption: Fps | undefined,
  at: StillAt[],
): Promise<{ frames: number[]; lastFrame: number }> {
  const project = await resolveProject(projectDir);
  const { metadata } = inspectComposition(await readFile(project.entryFile, 'utf8'), { file: project.entryFile });
  const fps = fpsOption ?? defaultFps(metadata.fps);
  const total = frameCount(metadata.duration, fps);
  if (total < 1) return { frames: at.map(() => 0), lastFrame: 0 };
  const frames = at.map((still) => {
    const field = 'time' in still ? 'time (--time)' : 'frame (--frame)';
    const chosen = stillFrame(still, fps, total, field);
    if (chosen.ok) return chosen.value;
    throw new SeekframeError('invalid-options', `${path.basename(project.entryFile)}: ${chosen.message}.`, {
      stage: 'config',
      details: { field: 'time' in still ? 'time' : 'frame', ...still, totalFrames: total },
    });
  });
  return { frames, lastFrame: total - 1 };
}
