import path from 'node:path';
import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { commitOutput, prepareTemp, removeTemp, tempPathFor } from '../system/atomic-output.js';
import { mediaFileInput, NO_PROTOCOLS } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export const audioTrackSchema = z.object({
  file: z.string().min(1),
  /** Seconds into the output where the track begins. */
  start: z.number().finite(),
  /** Seconds trimmed from the head of the source. */
  mediaStart: z.number().finite().min(0).default(0),
  /** Seconds of the source to play. */
  duration: z.number().finite().positive(),
  /** 0..1 gain (values above 1 amplify). */
  volume: z.number().finite().min(0).default(1),
});
export type AudioTrack = z.input<typeof audioTrackSchema>;

const SAMPLE_RATE = 48_000;

/**
 * Mixes every audible clip into one track exactly `totalDuration` seconds long: each source is
 * trimmed (mediaStart, duration), delayed to its start, scaled by its volume and summed without
 * normalisation.
 *
 * The graph uses only filters and options of ffmpeg 4.1 (2018), because the ffmpeg that an npm
 * package can ship for AWS Lambda is that old: adelay gets one delay per channel instead of
 * `all=1` (4.2+), and instead of amix's `normalize=0` (4.4+) every input is padded to the full
 * length, so amix's 1/inputs scale is constant and `volume=inputs` undoes it exactly.
 */
export async function mixAudio(
  tracks: AudioTrack[],
  totalDuration: number,
  output: string,
  codec: 'aac' | 'opus',
  options: {
    ffmpeg?: string;
    signal?: AbortSignal;
    /**
     * Seconds cut from the head of the mix (a render of part of a composition): the output holds
     * the samples from `from` to `totalDuration` of the whole mix, cut to the sample, so they line
     * up with the same times of a render of every frame.
     */
    from?: number;
  } = {},
): Promise<{ output: string; size: number }> {
  const parsed = z.array(audioTrackSchema).safeParse(tracks);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SeekframeError('invalid-options', `Audio track field "${issue.path.join('.')}" is invalid: ${issue.message}.`, {
      stage: 'media',
    });
  }
  if (!(totalDuration > 0)) {
    throw new SeekframeError('invalid-options', `mixAudio needs a positive total duration, got ${totalDuration}.`, { stage: 'media' });
  }
  const from = options.from ?? 0;
  if (!(from >= 0 && from < totalDuration)) {
    throw new SeekframeError('invalid-options', `mixAudio's from (${from} s) must be 0 or more and before the end (${totalDuration} s).`, {
      stage: 'media',
    });
  }
  const usable = parsed.data.map(clampToTimeline).filter((t) => t.duration > 0 && t.start < totalDuration);
  const args = ffmpegPreamble();
  const labels: string[] = [];
  const graph: string[] = [];
  usable.forEach((track, i) => {
    args.push(...mediaFileInput(track.file));
    const delayMs = Math.round(track.start * 1000);
    graph.push(
      `[${i}:a:0]atrim=start=${track.mediaStart}:duration=${track.duration},asetpts=PTS-STARTPTS,` +
        `aresample=${SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,volume=${track.volume},` +
        `adelay=delays=${delayMs}|${delayMs},apad,atrim=end=${totalDuration}[a${i}]`,
    );
    labels.push(`[a${i}]`);
  });
  // A silent base track fixes the length and format even when no clip reaches the end.
  args.push(...NO_PROTOCOLS, '-f', 'lavfi', '-t', String(totalDuration), '-i', `anullsrc=channel_layout=stereo:sample_rate=${SAMPLE_RATE}`);
  labels.push(`[${usable.length}:a]`);
  // The cut of a part is counted in samples (both ends rounded to the nearest one): a time would be
  // rounded per filter, and the part's samples must be the whole mix's at the same instants.
  const first = Math.round(from * SAMPLE_RATE);
  const last = Math.round(totalDuration * SAMPLE_RATE);
  const cut = from > 0 ? `atrim=start_sample=${first}:end_sample=${last},asetpts=PTS-STARTPTS` : `atrim=end=${totalDuration}`;
  graph.push(`${labels.join('')}amix=inputs=${labels.length}:duration=first:dropout_transition=0,volume=${labels.length},${cut}[out]`);

  const target = path.resolve(output);
  const temp = tempPathFor(target);
  const length = from > 0 ? (last - first) / SAMPLE_RATE : totalDuration;
  args.push('-filter_complex', graph.join(';'), '-map', '[out]', '-t', String(length));
  args.push(...(codec === 'aac' ? ['-c:a', 'aac', '-b:a', '192k'] : ['-c:a', 'libopus', '-b:a', '128k']), temp);

  await prepareTemp(temp, target, false);
  let result;
  try {
    result = await runProcess(ffmpegPath(options.ffmpeg), args, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    await removeTemp(temp);
    throw new SeekframeError(
      'audio-mix-failed',
      `Could not run ffmpeg to mix audio into ${target}: ${error instanceof Error ? error.message : String(error)}`,
      {
        stage: 'media',
        cause: error,
      },
    );
  }
  if (result.code !== 0) {
    await removeTemp(temp);
    const files = usable.map((t) => t.file).join(', ');
    throw new SeekframeError('audio-mix-failed', `Mixing audio from ${files || 'no tracks'} failed:\n${tailLines(result.stderr)}`, {
      stage: 'media',
      details: { files: usable.map((t) => t.file) },
    });
  }
  const size = await commitOutput(temp, target, false);
  return { output: target, size };
}

/** A clip that starts before 0 loses its head: move the trim point instead of delaying. */
function clampToTimeline(track: z.output<typeof audioTrackSchema>): z.output<typeof audioTrackSchema> {
  if (track.start >= 0) return track;
  return { ...track, start: 0, mediaStart: track.mediaStart - track.start, duration: track.duration + track.start };
}
