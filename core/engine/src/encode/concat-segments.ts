import { copyFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { commitOutput, prepareTemp, removeTemp, tempPathFor } from '../system/atomic-output.js';
import { localFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath, ffprobePath } from '../system/ffmpeg-paths.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export interface ConcatSegmentsOptions {
  /** Video-only pieces in order (segment-mode H.264 mp4, or ProRes mov), all with the same settings. */
  pieces: readonly string[];
  fps: { num: number; den: number };
  /** The mixed soundtrack (mixAudio), muxed once; its codec must suit the container (AAC for mp4). */
  audio?: string | null;
  /** Re-encode the audio instead of copying it (mov carries PCM). */
  audioCodec?: 'copy' | 'pcm_s16le';
  /** The final file; written to a temp name beside it and renamed when complete. */
  output: string;
  container: 'mp4' | 'mov';
  ffmpeg?: string;
  ffprobe?: string;
  signal?: AbortSignal;
  /** Fail unless the result has exactly this many video frames (counted by ffprobe). */
  expectFrames?: number;
}

/**
 * Joins the pieces of a split render without re-encoding a frame: ffmpeg's concat demuxer with
 * stream copy, timestamps regenerated at exactly `fps` (`-r` on the input), the audio muxed once,
 * `+faststart`. The result is counted with ffprobe before it is published, so a lost or doubled
 * frame at a seam fails here instead of shipping.
 */
export async function concatSegments(options: ConcatSegmentsOptions): Promise<{ output: string; size: number; frames: number }> {
  if (options.pieces.length === 0) {
    throw new SeekframeError('invalid-options', `No pieces to assemble into ${options.output}.`, { stage: 'encode' });
  }
  const output = path.resolve(options.output);
  const temp = tempPathFor(output);
  const list = `${temp}.txt`;
  await prepareTemp(temp, output, false);
  // The list names our own files only (each path quoted as the concat syntax wants).
  await writeFile(list, options.pieces.map((piece) => `file '${path.resolve(piece).replaceAll("'", "'\\''")}'\n`).join(''));
  const rate = `${options.fps.num}/${options.fps.den}`;
  const args = [
    ...ffmpegPreamble(),
    // concat reads the listed files with the file protocol only; the list is ours, not a page's.
    '-protocol_whitelist',
    'file',
    '-r',
    rate,
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    ...(options.audio ? localFileInput(options.audio) : []),
    '-map',
    '0:v',
    ...(options.audio ? ['-map', '1:a'] : []),
    '-c:v',
    'copy',
    ...(options.audio ? ['-c:a', options.audioCodec ?? 'copy'] : []),
    ...(options.container === 'mp4' ? ['-movflags', '+faststart'] : []),
    '-f',
    options.container,
    temp,
  ];
  try {
    const result = await runProcess(ffmpegPath(options.ffmpeg), args, options.signal ? { signal: options.signal } : {}).catch(
      (error: unknown) => {
        throw new SeekframeError(
          'ffmpeg-exited',
          `Could not run ffmpeg to join ${options.pieces.length} pieces into ${output}: ${error instanceof Error ? error.message : String(error)}`,
          { stage: 'encode', cause: error },
        );
      },
    );
    if (result.code !== 0) {
      throw new SeekframeError(
        'ffmpeg-exited',
        `Joining ${options.pieces.length} pieces into ${output} failed:\n${tailLines(result.stderr)}`,
        {
          stage: 'encode',
          details: { output, pieces: options.pieces.length },
        },
      );
    }
    const frames = await countVideoFrames(temp, options.ffprobe);
    if (options.expectFrames !== undefined && frames !== options.expectFrames) {
      throw new SeekframeError(
        'segment-mismatch',
        `The joined video has ${frames} frames where the plan has ${options.expectFrames}; a piece is missing, doubled or from another plan. Render the missing ranges again.`,
        { stage: 'encode', details: { output, frames, expected: options.expectFrames } },
      );
    }
    const size = await commitOutput(temp, output, false);
    return { output, size, frames };
  } catch (error) {
    await removeTemp(temp);
    throw error;
  } finally {
    await rm(list, { force: true });
  }
}

/** Video frames in a file, counted from its packets (exact for intra-only and B-frame-free streams). */
export async function countVideoFrames(file: string, ffprobe?: string): Promise<number> {
  const result = await runProcess(ffprobePath(ffprobe), [
    '-v',
    'error',
    '-protocol_whitelist',
    'file',
    '-select_streams',
    'v:0',
    '-count_packets',
    '-show_entries',
    'stream=nb_read_packets',
    '-of',
    'csv=p=0',
    file,
  ]);
  const frames = Number(result.stdout.trim().split(/\s+/)[0]);
  if (result.code !== 0 || !Number.isInteger(frames)) {
    throw new SeekframeError('media-probe-failed', `ffprobe could not count the frames of ${file}:\n${tailLines(result.stderr)}`, {
      stage: 'encode',
      details: { file },
    });
  }
  return frames;
}

/**
 * png-sequence pieces are folders of `frame_%06d.png` already numbered for the whole render:
 * joining them is moving the files into one folder (and the soundtrack beside them as
 * `audio.aac`). The folder is built beside the output and swapped in at the end.
 */
export async function joinPngSequences(options: {
  pieces: readonly string[];
  audio?: string | null;
  output: string;
  ffmpeg?: string;
  expectFrames?: number;
  signal?: AbortSignal;
}): Promise<{ output: string; size: number; frames: number }> {
  const output = path.resolve(options.output);
  const temp = tempPathFor(output);
  await prepareTemp(temp, output, true);
  try {
    let frames = 0;
    for (const piece of options.pieces) {
      for (const name of (await readdir(piece)).filter((n) => /^frame_\d{6}\.png$/.test(n)).sort()) {
        await copyFile(path.join(piece, name), path.join(temp, name));
        frames++;
      }
    }
    if (options.expectFrames !== undefined && frames !== options.expectFrames) {
      throw new SeekframeError(
        'segment-mismatch',
        `The pieces hold ${frames} frames where the plan has ${options.expectFrames}; render the missing ranges again.`,
        {
          stage: 'encode',
          details: { output, frames, expected: options.expectFrames },
        },
      );
    }
    if (options.audio) {
      // The same ADTS stream a one-piece png-sequence render writes, copied from the mix.
      const result = await runProcess(
        ffmpegPath(options.ffmpeg),
        [...ffmpegPreamble(), ...localFileInput(options.audio), '-map', '0:a', '-c:a', 'copy', '-f', 'adts', path.join(temp, 'audio.aac')],
        options.signal ? { signal: options.signal } : {},
      );
      if (result.code !== 0)
        throw new SeekframeError('ffmpeg-exited', `Writing audio.aac beside the frames of ${output} failed:\n${tailLines(result.stderr)}`, {
          stage: 'encode',
        });
    }
    const size = await commitOutput(temp, output, true);
    return { output, size, frames };
  } catch (error) {
    await removeTemp(temp);
    throw error;
  }
}
