import { SeekframeError } from '@seekframe/composition';
import { localFileInput } from '../system/ffmpeg-inputs.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { runProcess } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

/**
 * Average PSNR in dB of `candidate` against `reference` over their common frames, from ffmpeg's
 * psnr filter on the decoded pictures. Identical pictures give Infinity. The benchmark uses it
 * to accept only settings whose output looks like the reference render.
 */
export async function videoPsnr(reference: string, candidate: string, ffmpeg?: string): Promise<number> {
  const result = await runProcess(
    ffmpegPath(ffmpeg),
    [
      ...ffmpegPreamble({ logLevel: 'info', overwrite: false }),
      ...localFileInput(candidate),
      ...localFileInput(reference),
      '-lavfi',
      '[0:v][1:v]psnr',
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: 120_000 },
  );
  const match = /PSNR .*average:(inf|[\d.]+)/.exec(result.stderr);
  if (result.code !== 0 || !match) {
    throw new SeekframeError(
      'ffmpeg-exited',
      `ffmpeg could not compare ${candidate} with ${reference}: ${result.stderr.trim().split('\n').slice(-3).join(' ')}`,
      {
        stage: 'encode',
        details: { reference, candidate },
      },
    );
  }
  return match[1] === 'inf' ? Infinity : Number(match[1]);
}
