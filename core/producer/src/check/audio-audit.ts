import path from 'node:path';
import { measureLoudness, mixAudio, type AudioTrack, type Loudness } from '@seekframe/engine';
import type { InspectedClip, MediaClip } from '@seekframe/runtime';
import type { RenderSession } from '../render/render-session.js';
import type { CheckFinding, CheckReport } from './check-report.js';
import { asElement } from './motion-plan.js';

/**
 * The loudness a mix is compared with by default: -14 LUFS integrated, where YouTube, Spotify,
 * TikTok and Instagram normalise playback. A louder mix is turned down there (its peaks and
 * limiting were for nothing), a quieter one is left quiet by YouTube and turned up by the others.
 */
export const DEFAULT_LOUDNESS_TARGET = -14;
/** More than this many LU from the target is worth a warning. */
const LOUDNESS_SLACK = 5;
/** A clip whose loudest sample is below this is silent for a listener. */
const SILENT_BELOW_DBFS = -60;

export type AudioReport = NonNullable<CheckReport['audio']>;

export interface AudioAuditInput {
  /** The page's media clips (`__seekframe.mediaClips()`). */
  clips: readonly MediaClip[];
  /** The timeline's clips, to name each media clip's element. */
  inspected: readonly InspectedClip[];
  duration: number;
  codec: 'aac' | 'opus';
  target: number;
  signal?: AbortSignal;
}

/**
 * The audio audit: each audible clip measured over the part that plays (after its volume), then
 * the soundtrack mixed and encoded as a render mixes it, and measured as a whole (EBU R128 with
 * ffmpeg's ebur128). A clip that is silent where it plays, a peak at full scale, and a mix far
 * from the loudness target are warnings. No report when nothing is audible.
 */
export async function auditAudio(
  session: Pick<RenderSession, 'resolveMedia' | 'plannedSrc' | 'probe' | 'workDir' | 'ffmpeg'>,
  input: AudioAuditInput,
): Promise<{ report?: AudioReport; findings: CheckFinding[] }> {
  const audible = input.clips.filter((clip) => clip.hasAudio && clip.duration > 0);
  if (audible.length === 0) return { findings: [] };
  const findings: CheckFinding[] = [];
  const measured: AudioReport['clips'] = [];
  const tracks: AudioTrack[] = [];
  const ffmpeg = { ffmpeg: session.ffmpeg.ffmpeg, ...(input.signal ? { signal: input.signal } : {}) };
  for (const clip of audible) {
    const planned = session.plannedSrc(clip.src);
    const file = await session.resolveMedia(planned, clip.kind);
    const shown = planned.startsWith('/') ? planned.slice(1) : planned;
    const element = elementOf(clip, input.inspected);
    const time = { start: clip.start, end: clip.start + clip.duration };
    if (!(await session.probe(file)).hasAudio) {
      measured.push({ src: shown, start: clip.start, duration: clip.duration, samplePeak: null, integrated: null });
      findings.push(silent(clip, shown, element, time, 'has no audio stream'));
      continue;
    }
    const loudness = await measureLoudness(file, { mediaStart: clip.mediaStart, duration: clip.duration, volume: clip.volume, ...ffmpeg });
    measured.push({
      src: shown,
      start: clip.start,
      duration: clip.duration,
      samplePeak: loudness.samplePeak,
      integrated: loudness.integrated,
    });
    tracks.push({ file, start: clip.start, duration: clip.duration, mediaStart: clip.mediaStart, volume: clip.volume });
    if (loudness.samplePeak === null || loudness.samplePeak < SILENT_BELOW_DBFS) {
      const peak = loudness.samplePeak === null ? 'digital silence' : `its loudest sample is ${loudness.samplePeak.toFixed(1)} dBFS`;
      findings.push(silent(clip, shown, element, time, `is silent where it plays (${peak})`));
    } else if (clips(loudness)) findings.push(clipping(`${shown} (${element?.label ?? clip.kind})`, loudness, element, time));
  }

  let mix: Loudness = { integrated: null, range: null, samplePeak: null, truePeak: null };
  if (tracks.length > 0) {
    const output = path.join(session.workDir, input.codec === 'aac' ? 'check-mix.m4a' : 'check-mix.ogg');
    await mixAudio(tracks, input.duration, output, input.codec, ffmpeg);
    mix = await measureLoudness(output, { ownFile: true, ...ffmpeg });
  }
  const report: AudioReport = { target: input.target, mix, clips: measured };
  const time = { start: 0, end: input.duration };
  // The mix clips where no clip does alone: clips that overlap add up.
  if (clips(mix) && !findings.some((f) => f.code === 'audio/clipping')) findings.push(clipping('The mixed soundtrack', mix, null, time));
  if (mix.integrated !== null && Math.abs(mix.integrated - input.target) > LOUDNESS_SLACK) {
    const off = mix.integrated - input.target;
    findings.push({
      check: 'audio',
      code: 'audio/loudness',
      severity: 'warning',
      message: `The soundtrack's integrated loudness is ${mix.integrated.toFixed(1)} LUFS, ${Math.abs(off).toFixed(1)} LU ${off > 0 ? 'above' : 'below'} the target of ${input.target} LUFS (streaming services ${off > 0 ? 'turn it down' : 'play it quieter than other videos, or turn it up'}).`,
      element: null,
      time,
      file: null,
      fix: `${off > 0 ? 'Lower' : 'Raise'} the clips' data-volume (or the sources' gain) by about ${Math.abs(off).toFixed(0)} dB, or pass --loudness-target if you aim elsewhere (-23 LUFS for broadcast, EBU R128).`,
      details: { integrated: mix.integrated, target: input.target, truePeak: mix.truePeak },
    });
  }
  return { report, findings };
}

/** At or above full scale, as ebur128 rounds it (one decimal). */
function clips(loudness: Loudness): boolean {
  return loudness.samplePeak !== null && loudness.samplePeak >= -0.05;
}

/** The timeline clip of a media clip: same kind and the same time (a media clip carries no selector). */
function elementOf(clip: MediaClip, inspected: readonly InspectedClip[]): InspectedClip | undefined {
  return inspected.find(
    (c) => c.kind === clip.kind && Math.abs(c.start - clip.start) < 1e-3 && Math.abs(c.end - (clip.start + clip.duration)) < 1e-3,
  );
}

function silent(
  clip: MediaClip,
  src: string,
  element: InspectedClip | undefined,
  time: { start: number; end: number },
  what: string,
): CheckFinding {
  return {
    check: 'audio',
    code: 'audio/silent',
    severity: 'warning',
    message: `${element?.label ?? `The ${clip.kind} clip`} plays ${src} at ${time.start.toFixed(2)}-${time.end.toFixed(2)} s, but it ${what}.`,
    element: element ? asElement(element) : null,
    time,
    file: null,
    fix:
      clip.kind === 'video'
        ? 'Check the file and data-media-start; if the video has no sound, remove data-has-audio.'
        : 'Check the file, data-media-start and data-volume, or remove the clip.',
    details: { src, mediaStart: clip.mediaStart, volume: clip.volume },
  };
}

function clipping(
  what: string,
  loudness: Loudness,
  element: InspectedClip | null | undefined,
  time: { start: number; end: number },
): CheckFinding {
  const lower = Math.max(1, Math.ceil((loudness.samplePeak ?? 0) + 1));
  return {
    check: 'audio',
    code: 'audio/clipping',
    severity: 'warning',
    message: `${what} peaks at ${(loudness.samplePeak ?? 0).toFixed(1)} dBFS (true peak ${loudness.truePeak?.toFixed(1) ?? '?'} dBTP): full scale, so its loudest moments are clipped.`,
    element: element ? asElement(element) : null,
    time,
    file: null,
    fix: `Lower data-volume by at least ${lower} dB (×${(10 ** (-lower / 20)).toFixed(2)}) so the peak stays below -1 dBFS, or lower the source's gain.`,
    details: { samplePeak: loudness.samplePeak, truePeak: loudness.truePeak },
  };
}
