export const HARDWARE_H264_ENCODERS = ['h264_nvenc', 'h264_vaapi', 'h264_qsv', 'h264_videotoolbox'] as const;
export type HardwareEncoder = (typeof HARDWARE_H264_ENCODERS)[number];

/** The VAAPI render node; the first GPU on Linux. */
export const VAAPI_DEVICE = '/dev/dri/renderD128';

/**
 * ffmpeg arguments that encode H.264 with a hardware encoder at a constant quality `q` on the
 * x264 CRF scale (each encoder names its quality knob differently). `-vf` filters that must run
 * before the encoder are returned separately so callers can join them with their own.
 */
export function hardwareEncoderArgs(encoder: HardwareEncoder, q: number | { bitrate: string }): { inputArgs: string[]; filters: string[]; args: string[] } {
  if (typeof q === 'object') {
    const base = hardwareEncoderArgs(encoder, 23);
    return { ...base, args: ['-c:v', encoder, '-b:v', q.bitrate] };
  }
  switch (encoder) {
    case 'h264_nvenc':
      return { inputArgs: [], filters: ['format=yuv420p'], args: ['-c:v', 'h264_nvenc', '-preset', 'p5', '-rc', 'vbr', '-cq', String(q), '-b:v', '0'] };
    case 'h264_vaapi':
      // VAAPI encodes GPU surfaces: upload NV12 frames first.
      return { inputArgs: ['-vaapi_device', VAAPI_DEVICE], filters: ['format=nv12', 'hwupload'], args: ['-c:v', 'h264_vaapi', '-qp', String(q)] };
    case 'h264_qsv':
      return { inputArgs: [], filters: ['format=nv12'], args: ['-c:v', 'h264_qsv', '-global_quality', String(q)] };
    case 'h264_videotoolbox':
      // videotoolbox's -q:v runs 1-100, higher is better; map CRF 0..51 onto it.
      return { inputArgs: [], filters: ['format=yuv420p'], args: ['-c:v', 'h264_videotoolbox', '-q:v', String(Math.round(100 - (q / 51) * 99))] };
  }
}
