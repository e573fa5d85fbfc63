import { concatSegments, joinPngSequences } from '@seekframe/engine';
import type { RenderPlan } from '../plan/render-plan.js';
import type { RenderContext } from './render-context.js';
import { contextFfmpeg } from './render-context.js';
import { checkSplittable } from './render-frames.js';

/**
 * Joins the pieces of a split render (renderFrames segment targets, in frame order) into the
 * final output without re-encoding a frame: concat with stream copy at the plan's exact frame
 * rate, the mixed soundtrack (mixPlanAudio) muxed once, +faststart; the frame count is checked
 * against the plan before the file is published (atomically, beside `output`).
 */
export async function assembleSegments(
  plan: RenderPlan,
  pieces: string[],
  audio: string | null,
  output: string,
  context: RenderContext = {},
): Promise<{ output: string; frames: number; size: number }> {
  checkSplittable(plan);
  const ffmpeg = await contextFfmpeg(context);
  const common = {
    pieces,
    audio,
    output,
    ffmpeg: ffmpeg.ffmpeg,
    expectFrames: plan.totalFrames,
    ...(context.signal ? { signal: context.signal } : {}),
  };
  if (plan.format === 'png-sequence') return joinPngSequences(common);
  return concatSegments({
    ...common,
    ffprobe: ffmpeg.ffprobe,
    fps: plan.fps,
    container: plan.format === 'mov' ? 'mov' : 'mp4',
    // mov carries PCM like a one-piece render; mp4 takes the AAC mix as it is.
    ...(plan.format === 'mov' ? { audioCodec: 'pcm_s16le' as const } : {}),
  });
}
