import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { lambdaError } from '../errors.js';

const run = promisify(execFile);
const cache = new Map<string, Promise<boolean>>();

/**
 * Whether this ffmpeg can run the engine's audio mix (amix's `normalize` option, ffmpeg 4.4+;
 * adelay's `all`, 4.2+). The ffmpeg shipped inside @ffmpeg-installer/linux-x64 is a 2018 build
 * that renders and joins video fine but cannot mix audio.
 */
export function canMixAudio(ffmpeg: string): Promise<boolean> {
  let result = cache.get(ffmpeg);
  if (!result) {
    result = Promise.all([run(ffmpeg, ['-hide_banner', '-h', 'filter=amix'], { timeout: 15_000 }), run(ffmpeg, ['-hide_banner', '-h', 'filter=adelay'], { timeout: 15_000 })]).then(
      ([amix, adelay]) => /\bnormalize\b/.test(amix.stdout) && /\ball\b/.test(adelay.stdout),
      () => false,
    );
    cache.set(ffmpeg, result);
  }
  return result;
}

export async function assertCanMixAudio(ffmpeg: { ffmpeg: string; version: string }): Promise<void> {
  if (await canMixAudio(ffmpeg.ffmpeg)) return;
  throw lambdaError(
    'audio-mix-failed',
    `This composition has sound, and ffmpeg ${ffmpeg.version} (${ffmpeg.ffmpeg}) is too old to mix it (amix normalize needs ffmpeg 4.4 or newer). ` +
      'Attach a Lambda layer with a current static ffmpeg and ffprobe (SEEKFRAME_FFMPEG_LAYER in sst.config.ts sets SEEKFRAME_FFMPEG=/opt/bin/ffmpeg), or render silent compositions only.',
    { stage: 'media', details: { ffmpeg: ffmpeg.version } },
  );
}
