/**
 * What a render may ask of the encoder, defined once for every layer: the engine validates what
 * it receives against these, the producer's render spec (CLI flags, HTTP bodies, batch rows,
 * benchmark, Lambda payloads) is built from them, and the CLI lists them in its help. Here, in
 * the package without `node:` imports, so the CLI can read them without loading the engine.
 */
export const OUTPUT_FORMATS = ['mp4', 'mov', 'webm', 'gif', 'png-sequence'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const QUALITIES = ['draft', 'standard', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

/** --crf: 0-51 for mp4 (x264), 0-63 for webm (VP9); other formats take --quality only. */
export const CRF_MAX: Partial<Record<OutputFormat, number>> = { mp4: 51, webm: 63 };
/** The widest crf any format takes (schema bound before the per-format check). */
export const CRF_LIMIT = 63;

/** ffmpeg bit-rate syntax: `5M`, `2500k`, `800000`, `1.5G`. */
export const BITRATE_PATTERN = /^\d+(\.\d+)?[kKmMgG]?$/;

/** gif: 0 = loop forever, N = play N+1 times. */
export const GIF_LOOP_MAX = 65535;
