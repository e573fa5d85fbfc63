import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { chooseVideoFrameFormat, extractVideoFrames, ffmpegHasFilter } from '@seekframe/engine';
import type { VideoFrameMap } from '@seekframe/runtime';
import { frameTime } from '../plan/frame-timing.js';
import type { PlannedClip, RenderPlan } from '../plan/render-plan.js';
import type { HdrSource } from './open-media-page.js';
import type { RenderSession } from './render-session.js';

export interface PreparedVideoFrames {
  /** For the runtime's useVideoFrames: page src -> extracted frames on the project server. */
  videoFrames: VideoFrameMap;
  /** HDR <video> sources with their local files (for HDR two-pass capture). */
  hdrSources: HdrSource[];
}

/**
 * Decodes each <video> clip of the plan into still frames at the render rate and mounts them on
 * the project server, so the page shows exact frames instead of seeking a <video>. A range that
 * is not the whole render extracts only the source frames its own frames can show (plus a small
 * margin), numbered as in a full extraction.
 */
export async function prepareVideoFrames(
  plan: RenderPlan,
  /** Composition frames [start, end) (with --frames, not the output's numbers). */
  range: { start: number; end: number },
  session: RenderSession,
  signal: AbortSignal | undefined,
): Promise<PreparedVideoFrames> {
  const videoFrames: VideoFrameMap = {};
  const hdrSources: HdrSource[] = [];
  const sources = [...new Set(plan.media.clips.filter((c) => c.kind === 'video').map((c) => c.src))];
  if (sources.length === 0) return { videoFrames, hdrSources };
  const whole = plan.frames === undefined && range.start === 0 && range.end >= plan.totalFrames;
  const toneMapHdr = await ffmpegHasFilter('zscale', session.ffmpeg.ffmpeg);
  const rate = plan.fps.num / plan.fps.den;
  for (const [n, src] of sources.entries()) {
    throwIfAborted(signal);
    const input = await session.resolveMedia(src, 'video');
    const probe = await session.probe(input);
    const pageSrc = session.pageSrc(src);
    if (probe.hdr) hdrSources.push({ src: pageSrc, input, transfer: probe.hdr });
    // HDR clips: tone-mapped 16-bit PNG frames unless the user chose jpg (see tone-map-filter.ts).
    const toneMap = probe.hdr !== undefined && toneMapHdr;
    const format = toneMap && plan.videoFrameFormat === 'auto' ? 'png' : chooseVideoFrameFormat(plan.videoFrameFormat, probe);
    const dir = path.join(session.workDir, `video-${n + 1}`);
    const common = { fps: plan.fps, format, probe, toneMap, ffmpeg: session.ffmpeg.ffmpeg, ...(signal ? { signal } : {}) } as const;
    const clips = plan.media.clips.filter((c) => c.kind === 'video' && c.src === src);
    let extracted = whole ? undefined : await extractWindow(input, dir, common, sourceWindow(plan, range, clips));
    // useVideoFrames shows the frame for the page's current time (t = 0) at once, before the
    // first seek into the range: that frame must exist too.
    if (extracted) await addFrame(input, dir, common, sourceWindow(plan, { start: 0, end: 1 }, clips, 0).start);
    // A window past the source's end extracts nothing; the page then shows its last frame, which only a full extraction finds.
    extracted ??= { ...(await extractVideoFrames(input, dir, common)), first: 0 };
    const prefix = session.server.mount(`video-${n + 1}`, dir);
    videoFrames[pageSrc] = { urlPattern: prefix + extracted.pattern, fps: rate, frameCount: extracted.first + extracted.count };
  }
  return { videoFrames, hdrSources };
}

async function extractWindow(
  input: string,
  dir: string,
  common: Parameters<typeof extractVideoFrames>[2],
  window: { start: number; end: number },
): Promise<{ count: number; pattern: string; first: number } | undefined> {
  const result = await extractVideoFrames(input, dir, { ...common, frames: window });
  return result.count > 0 ? { ...result, first: window.start } : undefined;
}

/** Extracts one more source frame into `dir` (beside a window) without disturbing the window's files. */
async function addFrame(input: string, dir: string, common: Parameters<typeof extractVideoFrames>[2], index: number): Promise<void> {
  const side = `${dir}-frame-${index}`;
  await extractVideoFrames(input, side, { ...common, frames: { start: index, end: index + 1 } });
  for (const name of await readdir(side)) await rename(path.join(side, name), path.join(dir, name));
  await rm(side, { recursive: true, force: true });
}

/** Frames the runtime reads within 2 of the exact index; a wider window costs only a few files. */
const MARGIN = 2;

/**
 * The source frames (at the render rate, from the source's t = 0) that frames [start, end) of
 * the render can show for these clips of one source: the runtime's index is
 * floor((t - clip.start + clip.mediaStart) * fps), clamped at 0 (video-frame-overlay.ts).
 */
export function sourceWindow(
  plan: Pick<RenderPlan, 'fps'>,
  range: { start: number; end: number },
  clips: Pick<PlannedClip, 'start' | 'mediaStart'>[],
  margin = MARGIN,
): { start: number; end: number } {
  const rate = plan.fps.num / plan.fps.den;
  let low = Infinity;
  let high = -Infinity;
  for (const clip of clips) {
    for (const frame of [range.start, Math.max(range.start, range.end - 1)]) {
      const index = Math.floor((frameTime(frame, plan.fps) - clip.start + clip.mediaStart) * rate + 1e-6);
      low = Math.min(low, index);
      high = Math.max(high, index);
    }
  }
  return { start: Math.max(0, low - margin), end: Math.max(0, high) + margin + 1 };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
