import { toSeekframeError } from '@seekframe/composition';
import { mixAudio, type AudioTrack } from '@seekframe/engine';
import { ProblemLog } from '../serve/problem-log.js';
import { abortError, rootCause } from './render-errors.js';
import { firstFrame, type RenderPlan } from '../plan/render-plan.js';
import { frameTime } from '../plan/frame-timing.js';
import { CleanupStack } from './cleanup-stack.js';
import type { ProjectRenderContext } from './render-context.js';
import { openRenderSession, type RenderSession } from './render-session.js';
import { resolveProject } from '../serve/resolve-project.js';
import path from 'node:path';

/**
 * The plan's soundtrack, mixed once: every audible clip trimmed, delayed, scaled and summed into
 * one file exactly totalFrames / fps long (AAC, Opus for webm); with `frames`, the same samples as
 * the span's times in the whole mix. null when the render is silent.
 * The one-piece render hands it to its encoder; a split render muxes it at assembly.
 */
export async function mixPlanAudio(plan: RenderPlan, output: string, context: ProjectRenderContext): Promise<string | null> {
  if (!plan.media.audio) return null;
  const cleanup = new CleanupStack();
  const problems = context.problems ?? new ProblemLog();
  try {
    const project = await resolveProject(path.join(context.projectDir, plan.entry));
    // Sources are resolved the way the render resolves them (project files, the remote route's fetch).
    const session = await openRenderSession(
      {
        root: project.root,
        entry: plan.entry,
        variables: plan.variables,
        seed: plan.seed,
        fps: plan.fps,
        epochMs: plan.epochMs,
        network: plan.network,
        remoteTimeoutMs: plan.remoteTimeoutMs,
      },
      { ...context, problems },
      cleanup,
      { browser: false },
    );
    return await mixSessionAudio(plan, output, session, context.signal);
  } catch (caught) {
    throw abortError(context.signal, undefined) ?? rootCause(toSeekframeError(caught, { code: 'audio-mix-failed' }), problems);
  } finally {
    await cleanup.run();
  }
}

/** mixPlanAudio inside an open render session (renderComposition: no second server). */
export async function mixSessionAudio(
  plan: RenderPlan,
  output: string,
  session: RenderSession,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  if (!plan.media.audio) return null;
  const tracks: AudioTrack[] = [];
  for (const track of plan.media.audio.tracks) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    tracks.push({
      file: await session.resolveMedia(track.src, track.kind),
      start: track.start,
      duration: track.duration,
      mediaStart: track.mediaStart,
      volume: track.volume,
    });
  }
  // --frames: the whole mix up to the span's end, cut at its start (to the sample), so the part sounds as the same times of the whole render.
  const first = firstFrame(plan);
  const mixed = await mixAudio(tracks, frameTime(first + plan.totalFrames, plan.fps), output, plan.media.audio.codec, {
    ffmpeg: session.ffmpeg.ffmpeg,
    ...(signal ? { signal } : {}),
    ...(first > 0 ? { from: frameTime(first, plan.fps) } : {}),
  });
  return mixed.output;
}
