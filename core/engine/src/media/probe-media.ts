import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { mediaFileProbeArgs } from '../system/ffmpeg-inputs.js';
import { ffprobePath } from '../system/ffmpeg-paths.js';
import { hdrTransfer, type HdrTransfer } from '../encode/hdr-transfer.js';
import { runProcess, tailLines } from '../system/run-process.js';

const numeric = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => (v === undefined || v === 'N/A' ? undefined : Number(v)));

const streamSchema = z.object({
  index: z.number(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  pix_fmt: z.string().optional(),
  color_primaries: z.string().optional(),
  color_transfer: z.string().optional(),
  color_space: z.string().optional(),
  color_range: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  duration: numeric,
  nb_frames: numeric,
  sample_rate: numeric,
  channels: z.number().optional(),
  tags: z.record(z.string(), z.string()).optional(),
});

const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z.object({ duration: numeric, format_name: z.string().optional(), tags: z.record(z.string(), z.string()).optional() }).optional(),
});

export interface MediaStream {
  index: number;
  type: 'video' | 'audio' | 'subtitle' | 'data' | 'other';
  codec: string;
  duration?: number;
  width?: number;
  height?: number;
  pixFmt?: string;
  fps?: number;
  frames?: number;
  sampleRate?: number;
  channels?: number;
  /** ffprobe's colour description of a video stream (e.g. bt2020 / smpte2084 / bt2020nc / tv); absent when untagged. */
  color?: MediaColor;
  tags: Record<string, string>;
}

export interface MediaColor {
  primaries?: string;
  transfer?: string;
  space?: string;
  range?: string;
}

export interface MediaInfo {
  file: string;
  /** Seconds; the container's duration, else the longest stream's. 0 for still images. */
  duration: number;
  formatName: string;
  streams: MediaStream[];
  hasVideo: boolean;
  hasAudio: boolean;
  /** A pixel format with alpha, or VP9's ALPHA_MODE=1 tag (libvpx keeps alpha beside yuv420p). */
  hasAlpha: boolean;
  width?: number;
  height?: number;
  fps?: number;
  /** The first video stream's colour tags. */
  color?: MediaColor;
  /** HDR transfer of the first video stream: PQ (smpte2084) or HLG (arib-std-b67); absent for SDR. */
  hdr?: HdrTransfer;
}

const ALPHA_PIX_FMT = /^(yuva|rgba|bgra|argb|abgr|gbrap|ya\d|rgba64|bgra64|ayuv)/;

/** Reads a local media file's streams with ffprobe (file protocol and ordinary media containers only). */
export async function probeMedia(file: string, options: { ffprobe?: string } = {}): Promise<MediaInfo> {
  const fail = (why: string, cause?: unknown): SeekframeError =>
    new SeekframeError(
      'media-probe-failed',
      `Could not read media file ${file}: ${why}. Check that the file exists and is a video, audio or image file ffmpeg can decode.`,
      {
        stage: 'media',
        details: { file },
        ...(cause === undefined ? {} : { cause }),
      },
    );
  let result;
  try {
    result = await runProcess(
      ffprobePath(options.ffprobe),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...mediaFileProbeArgs(file)],
      { timeoutMs: 30_000 },
    );
  } catch (error) {
    throw fail(
      `ffprobe did not run (${error instanceof Error ? error.message : String(error)}); install ffmpeg or set SEEKFRAME_FFPROBE`,
      error,
    );
  }
  if (result.code !== 0) throw fail(tailLines(result.stderr, 3) || `ffprobe exited with code ${result.code}`);
  let parsed: z.infer<typeof probeSchema>;
  try {
    parsed = probeSchema.parse(JSON.parse(result.stdout));
  } catch (error) {
    throw fail('ffprobe printed output we could not parse', error);
  }
  return toMediaInfo(file, parsed);
}

function toMediaInfo(file: string, data: z.infer<typeof probeSchema>): MediaInfo {
  const streams: MediaStream[] = data.streams.map((s) => {
    const type = (['video', 'audio', 'subtitle', 'data'] as const).find((t) => t === s.codec_type) ?? 'other';
    const fps = type === 'video' ? (parseRate(s.avg_frame_rate) ?? parseRate(s.r_frame_rate)) : undefined;
    return {
      index: s.index,
      type,
      codec: s.codec_name ?? 'unknown',
      tags: s.tags ?? {},
      ...(s.duration !== undefined && Number.isFinite(s.duration) ? { duration: s.duration } : {}),
      ...(s.width !== undefined ? { width: s.width } : {}),
      ...(s.height !== undefined ? { height: s.height } : {}),
      ...(s.pix_fmt ? { pixFmt: s.pix_fmt } : {}),
      ...(fps !== undefined ? { fps } : {}),
      ...(s.nb_frames !== undefined && Number.isFinite(s.nb_frames) ? { frames: s.nb_frames } : {}),
      ...(s.sample_rate !== undefined && Number.isFinite(s.sample_rate) ? { sampleRate: s.sample_rate } : {}),
      ...(s.channels !== undefined ? { channels: s.channels } : {}),
      ...(type === 'video' ? colorOf(s) : {}),
    };
  });
  const video = streams.find((s) => s.type === 'video');
  const longest = Math.max(0, ...streams.map((s) => s.duration ?? 0));
  const formatDuration = data.format?.duration;
  const alphaTag = (s: MediaStream): boolean => Object.entries(s.tags).some(([k, v]) => k.toLowerCase() === 'alpha_mode' && v === '1');
  return {
    file,
    duration: formatDuration !== undefined && Number.isFinite(formatDuration) ? formatDuration : longest,
    formatName: data.format?.format_name ?? 'unknown',
    streams,
    hasVideo: video !== undefined,
    hasAudio: streams.some((s) => s.type === 'audio'),
    hasAlpha: streams.some((s) => s.type === 'video' && ((s.pixFmt !== undefined && ALPHA_PIX_FMT.test(s.pixFmt)) || alphaTag(s))),
    ...(video?.width !== undefined ? { width: video.width } : {}),
    ...(video?.height !== undefined ? { height: video.height } : {}),
    ...(video?.fps !== undefined ? { fps: video.fps } : {}),
    ...(video?.color ? { color: video.color } : {}),
    ...(hdrTransfer(video?.color?.transfer) ? { hdr: hdrTransfer(video?.color?.transfer) } : {}),
  };
}

/** ffprobe prints `unknown`/`reserved` for untagged fields: those say nothing. */
function colorOf(s: z.infer<typeof streamSchema>): { color?: MediaColor } {
  const known = (v: string | undefined): v is string => v !== undefined && v !== 'unknown' && v !== 'reserved';
  const color: MediaColor = {
    ...(known(s.color_primaries) ? { primaries: s.color_primaries } : {}),
    ...(known(s.color_transfer) ? { transfer: s.color_transfer } : {}),
    ...(known(s.color_space) ? { space: s.color_space } : {}),
    ...(known(s.color_range) ? { range: s.color_range } : {}),
  };
  return Object.keys(color).length > 0 ? { color } : {};
}

/** `30000/1001` -> 29.97…; `0/0` (unknown) -> undefined. */
export function parseRate(rate: string | undefined): number | undefined {
  if (!rate) return undefined;
  const [num, den] = rate.split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return undefined;
  return num / den;
}
