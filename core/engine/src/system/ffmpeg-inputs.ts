/**
 * The input options of every ffmpeg/ffprobe call the engine makes. ffmpeg understands far more
 * than files: `http:`, `tcp:`, `concat:`, `subfile:`, `data:` and more, and demuxers such as HLS,
 * DASH or ffconcat open further files named inside the one given. A media source comes from a
 * page (untrusted in server renders), so each input says exactly which protocols it may use:
 * a local file reads with `file` only, the frame stream with `pipe` only, and a generated lavfi
 * input with none. Callers resolve remote media to local files first (the producer downloads
 * them through its address-checked fetch), so nothing here ever needs the network.
 */

/**
 * Demuxers for ordinary audio/video files. Playlist and reference formats (hls, dash, concat,
 * imf, sdp, image2 sequences...) are left out on purpose: each reads other paths named inside
 * the file, which would let a project file reach files outside the project.
 */
export const MEDIA_DEMUXERS = [
  'mov',
  'matroska',
  'webm',
  'ogg',
  'mp3',
  'wav',
  'flac',
  'aac',
  'avi',
  'mpegts',
  'mpeg',
  'flv',
  'gif',
  'aiff',
  'caf',
  'w64',
  'asf',
  'ivf',
  'm4v',
  'h264',
  'hevc',
  'mpegvideo',
  'mjpeg',
  'ac3',
  'eac3',
  'amr',
];

/** A media source on local disk: file protocol only, ordinary media containers only. */
export function mediaFileInput(file: string): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', MEDIA_DEMUXERS.join(','), '-i', file];
}

/** ffprobe's form of {@link mediaFileInput}: the same limits, the file as the last argument. */
export function mediaFileProbeArgs(file: string): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', MEDIA_DEMUXERS.join(','), file];
}

/** A file the engine itself wrote (a mixed soundtrack, a render to compare): file protocol only. */
export function localFileInput(file: string): string[] {
  return ['-protocol_whitelist', 'file', '-i', file];
}

/** The whitelist for an input read from stdin (`-i pipe:0`). */
export const PIPE_INPUT_PROTOCOLS: readonly string[] = ['-protocol_whitelist', 'pipe'];

/**
 * The whitelist for a generated lavfi input (`-f lavfi -i anullsrc`): it opens no protocol, and
 * a name no protocol has ("none") makes sure it never can.
 */
export const NO_PROTOCOLS: readonly string[] = ['-protocol_whitelist', 'none'];
