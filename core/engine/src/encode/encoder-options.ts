import { z } from 'zod';
// The encoder's ranges are defined once, in composition (encoder-settings.ts): the producer's render
// spec and the CLI use the same constants, so what a user may ask for and what is accepted cannot drift.
import {
  BITRATE_PATTERN,
  CRF_LIMIT,
  CRF_MAX,
  GIF_LOOP_MAX,
  isUsableBitrate,
  MAX_OUTPUT_SIDE,
  OUTPUT_FORMATS,
  QUALITIES,
  SeekframeError,
  type OutputFormat,
  type Quality,
} from '@seekframe/composition';
import { HARDWARE_H264_ENCODERS } from './hardware-encoders.js';

export { BITRATE_PATTERN, CRF_LIMIT, CRF_MAX, GIF_LOOP_MAX, OUTPUT_FORMATS, QUALITIES, type OutputFormat };
export type { Quality } from '@seekframe/composition';

export interface EncoderRuleInput {
  format: OutputFormat;
  crf?: number | undefined;
  videoBitrate?: string | undefined;
}

/**
 * Cross-field rules both layers apply (the producer before anything starts, the engine on what
 * it receives): crf and videoBitrate exclude each other, apply to mp4/webm only, crf within the
 * format's range. Returns every problem with the field it belongs to.
 */
export function encoderRuleProblems(opts: EncoderRuleInput): { field: 'crf' | 'videoBitrate'; message: string }[] {
  const problems: { field: 'crf' | 'videoBitrate'; message: string }[] = [];
  if (opts.crf !== undefined && opts.videoBitrate !== undefined) {
    problems.push({
      field: 'crf',
      message: '--crf and --video-bitrate exclude each other: pick a constant quality (crf) or a target bitrate, not both.',
    });
    return problems;
  }
  if ((opts.crf !== undefined || opts.videoBitrate !== undefined) && CRF_MAX[opts.format] === undefined) {
    problems.push({
      field: opts.crf !== undefined ? 'crf' : 'videoBitrate',
      message: `--crf and --video-bitrate apply to mp4, hls and webm only, not ${opts.format}; use --quality instead.`,
    });
    return problems;
  }
  const max = CRF_MAX[opts.format];
  if (opts.crf !== undefined && max !== undefined && opts.crf > max) {
    problems.push({
      field: 'crf',
      message: `--crf for ${opts.format} (${opts.format === 'webm' ? 'VP9' : 'H.264'}) must be 0-${max}, got ${opts.crf}.`,
    });
  }
  return problems;
}

const positiveInt = z.number().int().positive();

/** Frames as images (screenshot, beginframe), or raw 8-bit BGRA or I420 (BT.709 limited range) pixels (canvas). */
export const INPUT_FORMATS = ['jpeg', 'png', 'bgra', 'i420'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export const encoderOptionsSchema = z.object({
  format: z.enum(OUTPUT_FORMATS),
  /** A file for video formats; a folder for png-sequence and hls. */
  output: z.string().min(1),
  /** Of the encoded frames (the page's size times the render's --scale). */
  width: positiveInt.max(MAX_OUTPUT_SIDE),
  height: positiveInt.max(MAX_OUTPUT_SIDE),
  /** Exact rational frame rate, e.g. { num: 30000, den: 1001 } for 29.97. */
  fps: z.object({ num: positiveInt, den: positiveInt }),
  /** How frames arrive: JPEG or PNG images, or raw BGRA pixels of width x height (canvas capture). */
  inputFormat: z.enum(INPUT_FORMATS),
  quality: z.enum(QUALITIES).default('standard'),
  /** mp4: 0-51 (x264); webm: 0-63 (VP9). Excludes videoBitrate. */
  crf: z.number().int().min(0).max(CRF_LIMIT).optional(),
  /** ffmpeg bitrate syntax: `5M`, `800k`, `2500000`. Excludes crf. */
  videoBitrate: z
    .string()
    .regex(BITRATE_PATTERN, 'use a number with an optional k/M/G suffix, e.g. 5M')
    .refine(isUsableBitrate, 'must be 1k-2G bits per second, e.g. 5M')
    .optional(),
  /** gif: 0 = loop forever (default), N = play N+1 times; -1 = play once. */
  gifLoop: z.number().int().min(-1).max(GIF_LOOP_MAX).optional(),
  /** Path of an already mixed audio file (see mixAudio), as long as the video. */
  audio: z.string().min(1).optional(),
  threads: z.number().int().min(0).max(64).optional(),
  /** mp4 only: a hardware H.264 encoder that probeHardwareEncoder() found working (--gpu). */
  hardwareEncoder: z.enum(HARDWARE_H264_ENCODERS).optional(),
  /** mp4 only: 10-bit HEVC with HDR tags (--hdr, or an HDR <video> source); excludes hardwareEncoder. */
  hdr: z
    .object({
      transfer: z.enum(['pq', 'hlg']),
      masterDisplay: z
        .string()
        .regex(/^G\(\d+,\d+\)B\(\d+,\d+\)R\(\d+,\d+\)WP\(\d+,\d+\)L\(\d+,\d+\)$/)
        .optional(),
      maxCll: z
        .string()
        .regex(/^\d+,\d+$/)
        .optional(),
    })
    .optional(),
  /**
   * The audio file is already in the output's codec (mixAudio's AAC for mp4/png-sequence, Opus
   * for webm): copy it instead of encoding it a second time. A split render muxes the same mixed
   * file with -c copy, so the two paths give the same samples.
   */
  audioCopy: z.boolean().optional(),
  /**
   * One piece of a split render (renderFrames segment mode), joined later without re-encoding:
   * mp4 = H.264 with a keyframe at its first frame, closed GOPs of `gop` frames, no B-frames, no
   * audio; png-sequence = files numbered from `startNumber`.
   */
  segment: z.object({ gop: positiveInt }).optional(),
  /**
   * hls: frames per segment. Every segment starts on a keyframe (an IDR, closed GOPs of exactly
   * this many frames) and holds this many frames (the last may hold fewer).
   */
  hlsSegmentFrames: positiveInt.optional(),
  /** png-sequence: number of the first file (frame_%06d.png); default 1. */
  startNumber: z.number().int().min(0).optional(),
  /** ffmpeg binary (default: SEEKFRAME_FFMPEG, else `ffmpeg` on PATH). */
  ffmpeg: z.string().min(1).optional(),
});

export type EncoderOptions = z.input<typeof encoderOptionsSchema>;
export type ResolvedEncoderOptions = z.output<typeof encoderOptionsSchema>;

/** Validates encoder options once, at the boundary, with errors that name the field and the fix. */
export function parseEncoderOptions(input: EncoderOptions): ResolvedEncoderOptions {
  const parsed = encoderOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'options';
    throw invalid(`Encoder option "${field}" is invalid: ${issue.message}.`, field);
  }
  const opts = parsed.data;
  const rule = encoderRuleProblems(opts)[0];
  if (rule) throw invalid(rule.message, rule.field);
  // yuv420p stores colour at half resolution, so H.264 needs even sizes. We reject rather than
  // pad: padding would silently change the video's size by a pixel.
  if ((opts.format === 'mp4' || opts.format === 'hls') && (opts.width % 2 !== 0 || opts.height % 2 !== 0)) {
    throw invalid(
      `${opts.format} (H.264, yuv420p) needs an even width and height, got ${opts.width}x${opts.height}. ` +
        `Set the composition to ${opts.width + (opts.width % 2)}x${opts.height + (opts.height % 2)}, or render to mov, webm or png-sequence.`,
      opts.width % 2 !== 0 ? 'width' : 'height',
    );
  }
  if (opts.hardwareEncoder !== undefined && opts.format !== 'mp4') {
    throw invalid(`Hardware encoding (${opts.hardwareEncoder}) applies to mp4 only, not ${opts.format}.`, 'hardwareEncoder');
  }
  if (opts.hdr !== undefined && opts.format !== 'mp4') {
    throw invalid(`HDR output (--hdr) applies to mp4 only (10-bit HEVC), not ${opts.format}.`, 'hdr');
  }
  if (opts.hdr !== undefined && opts.hardwareEncoder !== undefined) {
    throw invalid('HDR output is encoded with libx265 (10-bit); it does not combine with a hardware H.264 encoder.', 'hardwareEncoder');
  }
  if (opts.segment !== undefined && opts.format !== 'mp4') {
    throw invalid(
      `Segment encoding (a piece of a split render) applies to mp4 only, not ${opts.format}; png-sequence pieces use startNumber.`,
      'segment',
    );
  }
  if (opts.segment !== undefined && (opts.hdr !== undefined || opts.hardwareEncoder !== undefined || opts.audio !== undefined)) {
    throw invalid(
      'A segment of a split render is video-only H.264 from libx264: no audio, no HDR, no hardware encoder (the audio is muxed once at assembly).',
      'segment',
    );
  }
  if ((opts.hlsSegmentFrames !== undefined) !== (opts.format === 'hls')) {
    throw invalid(
      opts.format === 'hls'
        ? 'hls needs hlsSegmentFrames (frames per segment).'
        : `hlsSegmentFrames applies to hls only, not ${opts.format}.`,
      'hlsSegmentFrames',
    );
  }
  if (opts.startNumber !== undefined && opts.format !== 'png-sequence') {
    throw invalid(`startNumber applies to png-sequence only, not ${opts.format}.`, 'startNumber');
  }
  if (opts.gifLoop !== undefined && opts.format !== 'gif') {
    throw invalid(`--gif-loop applies to gif output only, not ${opts.format}.`, 'gifLoop');
  }
  return opts;
}

function invalid(message: string, field: string): SeekframeError {
  return new SeekframeError('invalid-options', message, { stage: 'config', details: { field } });
}

/**
 * x264 presets for mp4 from images (JPEG or PNG frames: screenshot and beginframe capture); the
 * VP9 equivalents give similar quality for similar effort. Raw frames (canvas capture) use
 * RAW_X264_PRESETS instead.
 */
export const QUALITY_PRESETS = {
  draft: { x264Crf: 28, x264Preset: 'ultrafast', vp9Crf: 40, vp9Deadline: 'realtime', vp9CpuUsed: 8 },
  standard: { x264Crf: 18, x264Preset: 'medium', vp9Crf: 31, vp9Deadline: 'good', vp9CpuUsed: 4 },
  high: { x264Crf: 15, x264Preset: 'slow', vp9Crf: 24, vp9Deadline: 'good', vp9CpuUsed: 2 },
} as const;

/**
 * x264 for raw frames (canvas capture's I420 or BGRA: nothing was lost before the encoder), per
 * level, picked from the measured frontier (bench/encoder-frontier.ts; the table and the choice:
 * docs/guide/performance.md#encoder-frontier): the cheapest setting that, on every composition
 * measured (four bench compositions and the peer benchmark's), scores an SSIM at least that of
 * the same level from beginframe's JPEG frames (a JPEG-capture pipeline like HyperFrames').
 * standard: veryfast 18 also gives smaller files on each, at half medium 18's CPU; draft was
 * already the cheapest preset; `high` keeps the image table's setting.
 */
export const RAW_X264_PRESETS = {
  draft: { x264Crf: 28, x264Preset: 'ultrafast' },
  standard: { x264Crf: 18, x264Preset: 'veryfast' },
  high: { x264Crf: 15, x264Preset: 'slow' },
} as const satisfies Record<Quality, { x264Crf: number; x264Preset: string }>;

/** The x264 preset and CRF of a level for frames that arrive as `inputFormat`. */
export function x264Preset(quality: Quality, inputFormat: InputFormat | undefined): { preset: string; crf: number } {
  const table = inputFormat === 'bgra' || inputFormat === 'i420' ? RAW_X264_PRESETS : QUALITY_PRESETS;
  return { preset: table[quality].x264Preset, crf: table[quality].x264Crf };
}
