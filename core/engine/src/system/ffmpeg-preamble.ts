/**
 * How every ffmpeg run of the engine starts: no banner, never reading stdin (a render's stdin is
 * its own, and a frame encoder's is the frames), errors only unless the run reads ffmpeg's own
 * report (loudness, PSNR), and overwriting the output (the engine writes temp files it named).
 */
export function ffmpegPreamble(options: { logLevel?: 'error' | 'info'; overwrite?: boolean } = {}): string[] {
  return ['-hide_banner', '-nostdin', '-loglevel', options.logLevel ?? 'error', ...(options.overwrite === false ? [] : ['-y'])];
}
