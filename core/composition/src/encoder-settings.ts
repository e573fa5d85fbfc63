/**
 * What a render may ask of the encoder, defined once for every layer: the engine validates what
 * it receives against these, the producer's render spec (CLI flags, HTTP bodies, batch rows,
 * benchmark, Lambda payloads) is built from them, and the CLI lists them in its help. Here, in
 * the package without `node:` imports, so the CLI can read them without loading the engine.
 */
export const OUTPUT_FORMATS = ['mp4', 'mov', 'webm', 'gif', 'png-sequence', 'hls'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Formats written as a folder of files (the output path names the folder), not one file. */
export const FOLDER_FORMATS: readonly OutputFormat[] = ['png-sequence', 'hls'];

export const QUALITIES = ['draft', 'standard', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

/** --crf: 0-51 for mp4 and hls (x264), 0-63 for webm (VP9); other formats take --quality only. */
export const CRF_MAX: Partial<Record<OutputFormat, number>> = { mp4: 51, hls: 51, webm: 63 };
/** The widest crf any format takes (schema bound before the per-format check). */
export const CRF_LIMIT = 63;

/** ffmpeg bit-rate syntax: `5M`, `2500k`, `800000`, `1.5G`. */
export const BITRATE_PATTERN = /^\d+(\.\d+)?[kKmMgG]?$/;

/**
 * The bit rates a render may ask for, in bits per second: 1k to 2G. H.264 at its highest level
 * allows 800 Mbit/s; past a few G ffmpeg's encoders overflow and fail mid-render, so such a value
 * is refused with the other option checks instead.
 */
export const BITRATE_MIN = 1_000;
export const BITRATE_MAX = 2_000_000_000;

/** Bits per second of a `BITRATE_PATTERN` value (`5M` = 5000000), or null when it is not one. */
export function parseBitrate(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text);
  if (!match) return null;
  const scale = { '': 1, k: 1e3, m: 1e6, g: 1e9 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(match[1]) * scale;
}

/** True for a bit rate in the pattern and within BITRATE_MIN-BITRATE_MAX. */
export function isUsableBitrate(text: string): boolean {
  const bits = parseBitrate(text);
  return bits !== null && bits >= BITRATE_MIN && bits <= BITRATE_MAX;
}

/** gif: 0 = loop forever, N = play N+1 times. */
export const GIF_LOOP_MAX = 65535;

/**
 * hls: the playlist every render writes (`index.m3u8`) and its MPEG-TS segments, in the output
 * folder. Each segment holds a whole number of frames and starts on a keyframe (IDR).
 */
export const HLS_PLAYLIST = 'index.m3u8';
/** Segment length when none is asked for: Apple's authoring guide recommends 6 s, players start faster with shorter ones; 4 s is the common middle. */
export const HLS_SEGMENT_SECONDS_DEFAULT = 4;
export const HLS_SEGMENT_SECONDS_MIN = 1;
export const HLS_SEGMENT_SECONDS_MAX = 60;

/**
 * --scale: the page is captured at this device scale factor, so the output is width x scale by
 * height x scale pixels with text and vector shapes drawn at that size (not upscaled).
 */
export const SCALE_MIN = 1;
export const SCALE_MAX = 4;
/** The largest side ffmpeg's encoders take here (and Chromium paints in one surface). */
export const MAX_OUTPUT_SIDE = 16384;
/** A scaled GIF may have at most this many pixels a frame (1080p): a 256-colour 4K GIF is tens of MB a second; use mp4 or webm. */
export const GIF_MAX_SCALED_PIXELS = 1920 * 1080;
