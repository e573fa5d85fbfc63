import path from 'node:path';
import { z } from 'zod';
import { BITRATE_PATTERN, CRF_LIMIT, CRF_MAX, GIF_LOOP_MAX, OUTPUT_FORMATS, QUALITIES, type OutputFormat } from '@seekframe/engine';
import {
  CAPTION_FILE_FORMATS,
  captionFileFormat,
  isUsableBitrate,
  HLS_PLAYLIST,
  HLS_SEGMENT_SECONDS_MAX,
  HLS_SEGMENT_SECONDS_MIN,
  parseFrameSpan,
  SCALE_MAX,
  type FrameSpan,
  SCALE_MIN,
} from '@seekframe/composition';
import { invalidOptionsError } from './invalid-options-error.js';
import { RenderLimitsSchema } from './render-limits.js';
import type { Fps } from '@seekframe/composition';

export { OUTPUT_FORMATS, type OutputFormat };

export type { Fps };

const RATIONAL = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;
const INTEGER = /^\s*(\d+)\s*$/;

function toFps(value: number | string, ctx: z.RefinementCtx): Fps | typeof z.NEVER {
  const fail = (why: string): typeof z.NEVER => {
    ctx.addIssue({ code: 'custom', message: `${why}; use an integer from 1 to 240 (e.g. 30) or a fraction like 30000/1001` });
    return z.NEVER;
  };
  let num: number;
  let den = 1;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return fail(`${value} is not a whole number`);
    num = value;
  } else if (INTEGER.test(value)) {
    num = Number(value);
  } else {
    const match = RATIONAL.exec(value);
    if (!match) return fail(`"${value}" is not a frame rate`);
    num = Number(match[1]);
    den = Number(match[2]);
    if (den === 0) return fail(`"${value}" divides by zero`);
  }
  const rate = num / den;
  if (!(rate >= 1 && rate <= 240)) return fail(`${value} is outside 1-240 frames per second`);
  const divisor = gcd(num, den);
  return { num: num / divisor, den: den / divisor };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** `30`, `"30"`, `"30000/1001"`, or an already parsed `{ num, den }`. */
export const FpsSchema = z
  .union([z.number(), z.string(), z.object({ num: z.number().int().positive(), den: z.number().int().positive() })])
  .transform((value, ctx) => toFps(typeof value === 'object' ? `${value.num}/${value.den}` : value, ctx));

/**
 * `"30-59"`, `"45"` or `{ start, end }`: composition frames at the render's fps, both ends
 * included. Whether the span fits the composition is known once it is read (planRender).
 */
export const FrameSpanSchema = z
  .custom<string | number | FrameSpan>(() => true)
  .transform((value, ctx) => {
    // Any value reaches the parser, so every wrong one gets its message (a union would only say "invalid input").
    const parsed = parseFrameSpan(typeof value === 'number' ? String(value) : value);
    if (parsed.ok) return parsed.span;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

/** File extension of each format; png-sequence and hls write a folder. */
export const FORMAT_EXTENSIONS: Record<OutputFormat, string> = {
  mp4: '.mp4',
  mov: '.mov',
  webm: '.webm',
  gif: '.gif',
  'png-sequence': '',
  hls: '',
};

/**
 * The serialisable settings of one render: what a CLI flag set, an HTTP body, a batch row, the
 * benchmark and a Lambda payload carry. Defined once; everything that is not data (abort signal,
 * event sink, browser, ffmpeg, tuning...) is the RenderContext's.
 */
export const RENDER_SPEC_SHAPE = {
  /** The project folder (its index.html is the entry) or the entry HTML file itself. */
  projectDir: z.string().min(1, 'must name a project folder or an .html file'),
  /** Output file (folder for png-sequence and hls). Default: renders/<project name>.<ext> under the cwd. */
  output: z.string().min(1).optional(),
  /** Default: from the output's extension (.mov, .webm, .gif), else mp4. */
  format: z.enum(OUTPUT_FORMATS, { message: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
  /** Default: the composition's data-fps, else 30. */
  fps: FpsSchema.optional(),
  /**
   * Only these composition frames (both included, at the render's fps): frame k of the output is
   * composition frame start + k, and the sound is cut to the same times. Default: every frame.
   */
  frames: FrameSpanSchema.optional(),
  quality: z.enum(QUALITIES, { message: `must be ${QUALITIES.join(', ').replace(/, (?=[^,]*$)/, ' or ')}` }).default('standard'),
  crf: z
    .number()
    .int('must be a whole number')
    .min(0, `must be 0-${CRF_LIMIT}`)
    .max(CRF_LIMIT, `must be 0-${CRF_MAX.mp4} for mp4, 0-${CRF_MAX.webm} for webm`)
    .optional(),
  videoBitrate: z
    .string()
    .regex(BITRATE_PATTERN, 'must be a bit rate like 5M, 2500k, 1.5G or 800000')
    .refine(isUsableBitrate, 'must be 1k-2G bits per second (e.g. 5M); a larger rate makes the encoder fail')
    .optional(),
  gifLoop: z
    .number()
    .int('must be a whole number')
    .min(0, `must be 0-${GIF_LOOP_MAX} (0 = loop forever)`)
    .max(GIF_LOOP_MAX, `must be 0-${GIF_LOOP_MAX} (0 = loop forever)`)
    .default(0),
  videoFrameFormat: z.enum(['auto', 'jpg', 'png'], { message: 'must be auto, jpg or png' }).default('auto'),
  /**
   * Device scale factor of the capture: the page keeps its CSS size (data-width x data-height)
   * and is painted at scale x as many pixels, so text and shapes are drawn sharp at the output
   * size instead of being upscaled. 1-4; width and height times it must be whole pixels.
   */
  scale: z.coerce
    .number({ error: `must be a number from ${SCALE_MIN} to ${SCALE_MAX}` })
    .min(SCALE_MIN, `must be ${SCALE_MIN}-${SCALE_MAX} (2 renders a 1080p composition as 4K)`)
    .max(SCALE_MAX, `must be ${SCALE_MIN}-${SCALE_MAX} (2 renders a 1080p composition as 4K)`)
    .default(1),
  /** hls: seconds of each segment (rounded to whole frames), default 4. */
  hlsSegmentSeconds: z.coerce
    .number({ error: `must be a number of seconds, ${HLS_SEGMENT_SECONDS_MIN}-${HLS_SEGMENT_SECONDS_MAX}` })
    .min(HLS_SEGMENT_SECONDS_MIN, `must be ${HLS_SEGMENT_SECONDS_MIN}-${HLS_SEGMENT_SECONDS_MAX} seconds`)
    .max(HLS_SEGMENT_SECONDS_MAX, `must be ${HLS_SEGMENT_SECONDS_MIN}-${HLS_SEGMENT_SECONDS_MAX} seconds`)
    .optional(),
  /** A caption sidecar (.srt or .vtt) written beside the render from the composition's captions variable, cue times on frame boundaries. */
  captions: z
    .string()
    .min(1)
    .refine((file) => captionFileFormat(file) !== undefined, {
      message: `must name a ${CAPTION_FILE_FORMATS.map((f) => `.${f}`).join(' or ')} file`,
    })
    .optional(),
  /** Which captions variable the sidecar is written from; needed only when the composition declares more than one. */
  captionsVariable: z.string().min(1).optional(),
  workers: z
    .union([z.literal('auto'), z.number().int('must be a whole number').min(1, 'must be 1-24 or auto').max(24, 'must be 1-24 or auto')])
    .default('auto'),
  browserGpu: z.boolean().default(false),
  /** Encode with a hardware H.264 encoder when one works (mp4); else libx264 with a warning. */
  gpu: z.boolean().default(false),
  /** mp4 only: 10-bit HEVC with HDR colour tags even without HDR sources. Excludes sdr. */
  hdr: z.boolean().default(false),
  /** Tone-map HDR sources to SDR (H.264, BT.709) instead of writing HDR. Excludes hdr. */
  sdr: z.boolean().default(false),
  variables: z.record(z.string(), z.unknown()).optional(),
  strictVariables: z.boolean().default(false),
  /** Problems that would silently show less (an empty sub-composition, an iframe it cannot drive, a blank video) fail the render instead of warning. */
  strict: z.boolean().default(false),
  captureMode: z
    .enum(['auto', 'canvas', 'beginframe', 'screenshot'], { message: 'must be auto, canvas, beginframe or screenshot' })
    .default('auto'),
  /** How long a page may take to become ready (`__seekframe.ready`), default 30 s. */
  readyTimeoutMs: z.number().int().positive().default(30_000),
  /** Longest a single seek (and frame capture) may take, default 30 s; a blocked page fails with page-unresponsive. */
  seekTimeoutMs: z.number().int().positive().default(30_000),
  /** Bounds on frames, wall time, workers and pixels (see render-limits.ts); none by default. */
  limits: RenderLimitsSchema.optional(),
  /** Time limit for each remote (non-CDN-mapped) asset, default 15 s. */
  remoteTimeoutMs: z.number().int().positive().default(15_000),
  /**
   * `sandboxed` (renders started by the producer server): the page reaches only its project
   * server, and remote assets may only come from public http(s) addresses.
   */
  network: z.enum(['open', 'sandboxed'], { message: 'must be open or sandboxed' }).default('open'),
};

type SpecShapeOutput = z.output<z.ZodObject<typeof RENDER_SPEC_SHAPE>>;

/** The cross-field rules, the same for the spec and for renderComposition's options (spec + signal). */
export function withSpecRules<S extends z.ZodType<SpecShapeOutput & Record<string, unknown>>>(schema: S) {
  return schema
    .superRefine((options, ctx) => {
      if (options.crf !== undefined && options.videoBitrate !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['crf'],
          message: 'crf and videoBitrate exclude each other (constant quality vs. target bit rate); give only one',
        });
      }
    })
    .transform((options) => ({ ...options, format: (options.format ?? formatFromOutput(options.output)) as OutputFormat }))
    .superRefine((options, ctx) => {
      if (options.hdr && options.sdr) {
        ctx.addIssue({
          code: 'custom',
          path: ['hdr'],
          message: 'and --sdr exclude each other: --hdr writes HDR output, --sdr tone-maps HDR sources to SDR; give only one',
        });
      } else if (options.hdr && options.format !== 'mp4') {
        ctx.addIssue({
          code: 'custom',
          path: ['hdr'],
          message: `applies to mp4 only (10-bit HEVC), not ${options.format}; render to .mp4 or drop --hdr`,
        });
      }
      // The encoder's own ranges (engine encoder-options.ts): one set of numbers for both layers.
      const crfMax = CRF_MAX[options.format];
      if (options.crf !== undefined && crfMax !== undefined && options.crf > crfMax) {
        ctx.addIssue({
          code: 'custom',
          path: ['crf'],
          message: `must be 0-${crfMax} for ${options.format} (mp4/H.264 takes 0-${CRF_MAX.mp4}, webm/VP9 0-${CRF_MAX.webm})`,
        });
      }
      if ((options.crf !== undefined || options.videoBitrate !== undefined) && crfMax === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [options.crf !== undefined ? 'crf' : 'videoBitrate'],
          message: `applies to mp4, hls and webm only, not ${options.format}; use quality instead`,
        });
      }
      if (options.hlsSegmentSeconds !== undefined && options.format !== 'hls') {
        ctx.addIssue({
          code: 'custom',
          path: ['hlsSegmentSeconds'],
          message: `applies to hls only, not ${options.format}; add format hls or drop it`,
        });
      }
      if (options.format === 'hls' && options.output !== undefined && HLS_NOT_A_FOLDER.test(options.output)) {
        ctx.addIssue({
          code: 'custom',
          path: ['output'],
          message: `names a file (${path.basename(options.output)}), but hls writes a folder: ${HLS_PLAYLIST} and its segment_NNNNN.ts files. Give a folder such as ${path.join(path.dirname(options.output), path.basename(options.output, path.extname(options.output)))}`,
        });
      }
      if (options.captionsVariable !== undefined && options.captions === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['captionsVariable'],
          message: 'chooses the variable of a caption file; give captions (an .srt or .vtt path) too, or drop it',
        });
      }
    });
}

export const RenderSpecSchema = withSpecRules(z.object(RENDER_SPEC_SHAPE));

/** An hls output that is a playlist or a video file rather than a folder. */
const HLS_NOT_A_FOLDER = /\.(m3u8|m3u|mp4|mov|webm|gif|ts)$/i;

/** `out.webm` means webm when no format is given, `out.m3u8` hls (refused: hls writes a folder); unknown or missing extensions mean mp4. */
export function formatFromOutput(output: string | undefined): OutputFormat {
  const ext = output ? path.extname(output).toLowerCase() : '';
  if (ext === '.m3u8') return 'hls';
  const match = OUTPUT_FORMATS.find((format) => FORMAT_EXTENSIONS[format] !== '' && FORMAT_EXTENSIONS[format] === ext);
  return match ?? 'mp4';
}

export type RenderSpecInput = z.input<typeof RenderSpecSchema>;
export type RenderSpec = z.output<typeof RenderSpecSchema>;

/**
 * Validates a render spec (a CLI flag set, an HTTP body, a batch row, a Lambda payload) and
 * throws one `invalid-options` SeekframeError listing every problem; `source` names where the
 * spec came from (a file, a request) in the message.
 */
export function parseRenderSpec(input: unknown, source?: string, fieldName?: (field: string) => string): RenderSpec {
  const result = RenderSpecSchema.safeParse(input);
  if (result.success) return result.data;
  throw invalidOptionsError(result.error, fieldName, source);
}
