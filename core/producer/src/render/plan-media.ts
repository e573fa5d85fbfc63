import { ffmpegHasFilter, probeHdrMetadata } from '@seekframe/engine';
import type { PlannedAudioTrack, PlannedClip, RenderPlan } from '../plan/render-plan.js';
import type { RenderSpec } from '../plan/render-spec.js';
import { chooseDynamicRange } from './choose-dynamic-range.js';
import type { HdrSource } from './open-media-page.js';
import type { OpenedMediaPage } from './plan-capture-page.js';
import type { RenderSession } from './render-session.js';

/**
 * The plan's media from the clips the page reported: each clip with its source as the plan names
 * it (video sources probed for HDR), the audio tracks to mix (clips whose file really has sound;
 * none for a GIF), and the output's dynamic range (--hdr/--sdr and the HDR clips found), whose
 * warnings go out as events.
 */
export async function planMedia(
  spec: RenderSpec,
  pageClips: OpenedMediaPage['clips'],
  session: RenderSession,
): Promise<{ media: RenderPlan['media']; hdr?: NonNullable<RenderPlan['encoder']['hdr']> }> {
  const clips: PlannedClip[] = [];
  const hdrSources: HdrSource[] = [];
  for (const clip of pageClips) {
    const planned: PlannedClip = {
      kind: clip.kind,
      src: session.plannedSrc(clip.src),
      start: clip.start,
      duration: clip.duration,
      mediaStart: clip.mediaStart,
      hasAudio: clip.hasAudio,
      volume: clip.volume,
    };
    if (clip.kind === 'video') {
      const input = await session.resolveMedia(planned.src, 'video');
      const probe = await session.probe(input);
      if (probe.hdr) {
        planned.hdr = probe.hdr;
        if (!hdrSources.some((s) => s.src === clip.src)) hdrSources.push({ src: clip.src, input, transfer: probe.hdr });
      }
    }
    clips.push(planned);
  }
  const tracks: PlannedAudioTrack[] = [];
  if (spec.format !== 'gif') {
    for (const clip of clips.filter((c) => c.hasAudio && c.duration > 0)) {
      const input = await session.resolveMedia(clip.src, clip.kind);
      if (!(await session.probe(input)).hasAudio) continue; // data-has-audio on a silent file: nothing to mix
      const { kind, src, start, duration, mediaStart, volume } = clip;
      tracks.push({ kind, src, start, duration, mediaStart, volume });
    }
  }
  const range = await chooseDynamicRange({
    format: spec.format,
    hdr: spec.hdr,
    sdr: spec.sdr,
    sources: hdrSources,
    // Listing ffmpeg's filters starts a process (0.1 s, over 1.5 s on a busy host, the render
    // report showed): only asked when HDR is in play; without HDR clips or --hdr zscale is unused.
    zscale: (hdrSources.length > 0 || spec.hdr) && (await ffmpegHasFilter('zscale', session.ffmpeg.ffmpeg)),
    readMetadata: (input) => probeHdrMetadata(input, { ffprobe: session.ffmpeg.ffprobe }),
  });
  for (const warning of range.warnings) session.emit(warning);
  const media = {
    clips,
    audio: tracks.length > 0 ? { tracks, codec: spec.format === 'webm' ? ('opus' as const) : ('aac' as const) } : null,
  };
  return { media, ...(range.hdr ? { hdr: range.hdr } : {}) };
}
