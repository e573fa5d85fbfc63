import type { MediaClip, TimelineClip } from '../runtime-types.js';
import type { Clip } from './clip-timeline.js';
import { mediaSrc } from './media-elements.js';
import { clipVolume, isAudible } from './media-playback.js';
import type { SubComposition } from './sub-composition.js';

/**
 * What a document's clips look like from outside the page: the media the producer mixes and
 * extracts frames for, and the timeline the studio draws. `duration` is the document's length,
 * the end of a sub-composition that has no clip of its own.
 */
export async function describeMediaClips(clips: readonly Clip[], subs: readonly SubComposition[], duration: number): Promise<MediaClip[]> {
  const out: MediaClip[] = [];
  for (const clip of clips) {
    if (clip.kind !== 'video' && clip.kind !== 'audio') continue;
    out.push({
      kind: clip.kind,
      src: mediaSrc(clip.el as HTMLMediaElement),
      start: clip.start,
      duration: Math.max(0, clip.end - clip.start),
      mediaStart: clip.mediaStart,
      hasAudio: isAudible(clip),
      volume: clipVolume(clip.el),
    });
  }
  for (const sub of subs) {
    const clip = clips.find((c) => c.el === sub.host);
    out.push(...(await sub.mediaClips(clip?.start ?? 0, clip?.end ?? duration)));
  }
  return out.sort((a, b) => a.start - b.start);
}

export function describeTimeline(clips: readonly Clip[], subs: readonly SubComposition[]): TimelineClip[] {
  return clips.map((clip) => {
    const sub = clip.kind === 'composition' ? subs.find((s) => s.host === clip.el) : undefined;
    const variables = sub?.runtime?.getVariables();
    return {
      id: clip.id,
      kind: clip.kind,
      element: clip.el,
      start: clip.start,
      end: clip.end,
      trackIndex: clip.trackIndex,
      mediaStart: clip.mediaStart,
      lengthFrom: clip.lengthFrom,
      ...(variables ? { variables } : {}),
    };
  });
}
