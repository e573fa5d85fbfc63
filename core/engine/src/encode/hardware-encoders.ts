export const HARDWARE_H264_ENCODERS = ['h264_nvenc', 'h264_vaapi', 'h264_qsv', 'h264_videotoolbox'] as const;
export type HardwareEncoder = (typeof HARDWARE_H264_ENCODERS)[number];

/** The VAAPI render node; the first GPU on Linux. */
export const VAAPI_DEVICE = '/dev/dri/renderD128';

/** What the user asked for: a quality preset, optionally overridden by --crf or --video-bitrate. */
export interface HardwareQuality {
  quality: 'draft' | 'standard' | 'high';
  /** On the x264 CRF scale (0-51, lower is better). */
  crf: number;
  /** ffmpeg bitrate syntax (`5M`); when set, crf is ignored (they exclude each other upstream). */
  videoBitrate?: string | undefined;
}

/** NVENC's speed/quality presets: p1 fastest .. p7 best. */
const NVENC_PRESETS = { draft: 'p1', standard: 'p5', high: 'p7' } as const;
/** Quick Sync's presets, named like x264's. */
const QSV_PRESETS = { draft: 'veryfast', standard: 'medium', high: 'veryslow' } as const;

/**
 * ffmpeg arguments that encode H.264 with a hardware encoder. Each encoder names its quality knob
 * differently, so the x264 CRF (from --crf, else the preset's 28/18/15) is carried onto each one's
 * own constant-quality control, and --video-bitrate onto its bit-rate mode:
 *   nvenc        -preset p1/p5/p7 -rc vbr -cq <crf> -b:v 0     | -rc vbr -b:v <rate>
 *   vaapi        format=nv12,hwupload; -rc_mode CQP -qp <crf>  | -rc_mode VBR -b:v <rate>
 *   qsv          -preset veryfast/medium/veryslow -global_quality <crf> | -b:v <rate>
 *   videotoolbox -q:v <100 - crf*99/51> (1-100, higher is better) | -b:v <rate>
 * `-vf` filters that must run before the encoder are returned separately so callers can join
 * them with their own colour conversion; `inputArgs` go before the first `-i`.
 */
export function hardwareEncoderArgs(
  encoder: HardwareEncoder,
  q: HardwareQuality,
): { inputArgs: string[]; filters: string[]; args: string[] } {
  const rate = q.videoBitrate;
  switch (encoder) {
    case 'h264_nvenc':
      return {
        inputArgs: [],
        filters: ['format=yuv420p'],
        args: [
          '-c:v',
          'h264_nvenc',
          '-preset',
          NVENC_PRESETS[q.quality],
          '-rc',
          'vbr',
          ...(rate ? ['-b:v', rate] : ['-cq', String(q.crf), '-b:v', '0']),
        ],
      };
    case 'h264_vaapi':
      // VAAPI encodes GPU surfaces: frames are converted to NV12 in software, then uploaded.
      return {
        inputArgs: ['-vaapi_device', VAAPI_DEVICE],
        filters: ['format=nv12', 'hwupload'],
        args: ['-c:v', 'h264_vaapi', ...(rate ? ['-rc_mode', 'VBR', '-b:v', rate] : ['-rc_mode', 'CQP', '-qp', String(q.crf)])],
      };
    case 'h264_qsv':
      return {
        inputArgs: [],
        filters: ['format=nv12'],
        args: ['-c:v', 'h264_qsv', '-preset', QSV_PRESETS[q.quality], ...(rate ? ['-b:v', rate] : ['-global_quality', String(q.crf)])],
      };
    case 'h264_videotoolbox':
      return {
        inputArgs: [],
        filters: ['format=yuv420p'],
        args: ['-c:v', 'h264_videotoolbox', ...(rate ? ['-b:v', rate] : ['-q:v', String(videoToolboxQuality(q.crf))])],
      };
  }
}

/** VideoToolbox's -q:v runs 1-100, higher is better: CRF 0 -> 100, CRF 51 -> 1. */
export function videoToolboxQuality(crf: number): number {
  return Math.round(100 - (crf / 51) * 99);
}
