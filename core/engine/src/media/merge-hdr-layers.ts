import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { commitOutput, prepareTemp, removeTemp, tempPathFor } from '../system/atomic-output.js';
import { localFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { HDR_TRANSFER_NAMES } from '../encode/hdr-transfer.js';
import { hdrVideoArgs, type HdrOutput } from '../encode/hdr-encoder-args.js';
import { hdrMergeGraph } from './hdr-layers.js';
import { QUALITY_PRESETS } from '../encode/encoder-options.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export interface MergeHdrOptions {
  /** Folders of `frame_%06d.png` from pass A and pass B (hdr-layers.ts). */
  passA: string;
  passB: string;
  fps: { num: number; den: number };
  /** The HDR clips' peak in units of reference white (headroomPeak). */
  peak: number;
  hdr: HdrOutput;
  quality: keyof typeof QUALITY_PRESETS;
  crf?: number | undefined;
  videoBitrate?: string | undefined;
  audio?: string | undefined;
  output: string;
  threads?: number | undefined;
  ffmpeg?: string;
  signal?: AbortSignal;
}

/** The final HDR mp4 from the two captured passes; written to a temp name, then renamed. */
export async function mergeHdrLayers(opts: MergeHdrOptions): Promise<{ output: string; size: number }> {
  const rate = `${opts.fps.num}/${opts.fps.den}`;
  const preset = QUALITY_PRESETS[opts.quality];
  const temp = tempPathFor(opts.output);
  await prepareTemp(temp, opts.output, false);
  const frames = (dir: string): string[] => [
    '-protocol_whitelist',
    'file',
    '-framerate',
    rate,
    '-start_number',
    '1',
    '-i',
    path.join(dir, 'frame_%06d.png'),
  ];
  const args = [
    ...ffmpegPreamble(),
    '-filter_threads',
    '1',
    ...frames(opts.passA),
    ...frames(opts.passB),
    ...(opts.audio ? localFileInput(opts.audio) : []),
    '-filter_complex',
    hdrMergeGraph(opts.peak, HDR_TRANSFER_NAMES[opts.hdr.transfer]),
    '-map',
    '[v]',
    ...(opts.audio ? ['-map', '2:a'] : []),
    ...hdrVideoArgs(opts.hdr, { preset: preset.x264Preset, crf: opts.crf ?? preset.x264Crf, videoBitrate: opts.videoBitrate }),
    ...(opts.threads !== undefined ? ['-threads', String(opts.threads)] : []),
    ...(opts.audio ? ['-c:a', 'aac', '-b:a', '192k'] : []),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    temp,
  ];
  try {
    const result = await runProcess(ffmpegPath(opts.ffmpeg), args, opts.signal ? { signal: opts.signal } : {});
    if (result.code !== 0) {
      throw new SeekframeError('ffmpeg-exited', `ffmpeg could not merge the HDR passes into ${opts.output}:\n${tailLines(result.stderr)}`, {
        stage: 'encode',
        details: { output: opts.output },
      });
    }
    return { output: opts.output, size: await commitOutput(temp, opts.output, false) };
  } catch (error) {
    await removeTemp(temp);
    throw error;
  }
}
