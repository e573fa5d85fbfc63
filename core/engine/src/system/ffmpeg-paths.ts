/** ffmpeg/ffprobe to run when the caller passes none: the env overrides, else PATH lookup by name. */
export function ffmpegPath(explicit?: string): string {
  return explicit ?? process.env.SEEKFRAME_FFMPEG ?? 'ffmpeg';
}

export function ffprobePath(explicit?: string): string {
  return explicit ?? process.env.SEEKFRAME_FFPROBE ?? 'ffprobe';
}
