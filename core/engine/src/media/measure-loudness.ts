import { SeekframeError } from '@seekframe/composition';
import { localFileInput, mediaFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

/** Loudness of a stretch of audio as EBU R128 measures it (ffmpeg's `ebur128` filter). */
export interface Loudness {
  /** Integrated loudness, LUFS; null when nothing passes the gate (silence, or under 0.4 s). */
  integrated: number | null;
  /** Loudness range, LU; null when it cannot be measured. */
  range: number | null;
  /** Highest sample, dBFS; null for digital silence. */
  samplePeak: number | null;
  /** Highest true (4x oversampled) peak, dBTP; null for digital silence. */
  truePeak: number | null;
}

export interface LoudnessOptions {
  /** Seconds into the source to start (default 0). */
  mediaStart?: number;
  /** Seconds to measure (default: to the end). */
  duration?: number;
  /** Gain applied first, as data-volume does (default 1). */
  volume?: number;
  /** The source is a file the engine wrote itself (a mixed soundtrack), not a page's media. */
  ownFile?: boolean;
  ffmpeg?: string;
  signal?: AbortSignal;
}

/**
 * Measures the audio of `input` over `[mediaStart, mediaStart + duration)`, scaled by `volume`:
 * integrated loudness, loudness range, sample and true peak. One ffmpeg run that decodes the
 * audio once and writes nothing.
 */
export async function measureLoudness(input: string, options: LoudnessOptions = {}): Promise<Loudness> {
  const { mediaStart = 0, duration, volume = 1 } = options;
  const args = [
    ...ffmpegPreamble({ logLevel: 'info', overwrite: false }),
    ...(mediaStart > 0 ? ['-ss', String(mediaStart)] : []),
    ...(duration !== undefined ? ['-t', String(duration)] : []),
    ...(options.ownFile ? localFileInput(input) : mediaFileInput(input)),
    '-vn',
    '-af',
    `volume=${volume},ebur128=peak=sample+true:framelog=verbose`,
    '-f',
    'null',
    '-',
  ];
  const result = await runProcess(ffmpegPath(options.ffmpeg), args, options.signal ? { signal: options.signal } : {});
  const summary = result.stderr.slice(result.stderr.lastIndexOf('Summary:'));
  if (result.code !== 0 || !summary.startsWith('Summary:')) {
    throw new SeekframeError('ffmpeg-exited', `Measuring the loudness of ${input} failed:\n${tailLines(result.stderr)}`, {
      stage: 'media',
      details: { input },
    });
  }
  return parseLoudnessSummary(summary);
}

/** The numbers of ebur128's closing summary (`I: -16.2 LUFS`, `LRA: 3.1 LU`, `Peak: -1.0 dBFS`). */
export function parseLoudnessSummary(summary: string): Loudness {
  const value = (section: RegExp, field: string): number | null => {
    const at = summary.search(section);
    if (at < 0) return null;
    const match = new RegExp(`${field}:\\s*(-?inf|-?[\\d.]+)`).exec(summary.slice(at));
    if (!match || /inf/.test(match[1]!)) return null;
    const n = Number(match[1]);
    return Number.isFinite(n) ? n : null;
  };
  const integrated = value(/Integrated loudness:/, 'I');
  return {
    // ebur128 reports -70 LUFS (its absolute gate) when nothing passes it.
    integrated: integrated !== null && integrated <= -70 ? null : integrated,
    range: value(/Loudness range:/, 'LRA'),
    samplePeak: value(/Sample peak:/, 'Peak'),
    truePeak: value(/True peak:/, 'Peak'),
  };
}
