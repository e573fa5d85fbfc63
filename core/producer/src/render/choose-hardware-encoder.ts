import { describeHardwareProbe, probeHardwareEncoder, type HardwareEncoder, type HardwareEncoderProbe } from '@seekframe/engine';
import type { OutputFormat } from '../plan/render-options.js';

export interface HardwareChoice {
  /** Set when a hardware encoder passed its one-frame test; the encoder uses it instead of libx264. */
  encoder?: HardwareEncoder;
  /** Why the render encodes in software although --gpu was given. */
  warning?: { type: 'warning'; code: string; message: string; details?: Record<string, unknown> };
}

/** The software encoder each format uses, named in the fallback warning. */
const SOFTWARE_ENCODERS: Record<OutputFormat, string> = {
  mp4: 'libx264',
  mov: 'prores_ks (ProRes 4444 with alpha)',
  webm: 'libvpx-vp9 (VP9 with alpha)',
  gif: 'the gif encoder',
  'png-sequence': 'the png encoder',
  hls: 'libx264 (a keyframe exactly at every segment start)',
};

/**
 * `--gpu`: a hardware H.264 encoder for mp4 when one really encodes a frame here, else software
 * with a warning that says why each backend was not used. mov and webm carry alpha, which no
 * hardware encoder ffmpeg offers can keep (VP9 VAAPI/QSV and VideoToolbox ProRes are 4:2:0 or
 * opaque), so they stay in software; gif and png-sequence have no hardware encoders at all.
 */
export async function chooseHardwareEncoder(
  format: OutputFormat,
  probe: () => Promise<HardwareEncoderProbe> = () => probeHardwareEncoder(),
): Promise<HardwareChoice> {
  if (format !== 'mp4') {
    return {
      warning: {
        type: 'warning',
        code: 'gpu/unsupported-format',
        message: `--gpu: no hardware encoder can write ${format} here (${format === 'mov' || format === 'webm' ? 'hardware encoders drop the alpha channel it carries' : format === 'hls' ? 'its segments must start on keyframes placed at exact frames, which only libx264 is set up to do' : 'none exists for it'}); encoding with ${SOFTWARE_ENCODERS[format]}. Hardware encoding applies to mp4.`,
        details: { format },
      },
    };
  }
  const result = await probe();
  if (result.encoder) return { encoder: result.encoder };
  return {
    warning: {
      type: 'warning',
      code: 'gpu/software-fallback',
      message: `--gpu: no hardware H.264 encoder works on this machine, encoding with libx264 instead (${describeHardwareProbe(result)}).`,
      details: { tried: result.tried },
    },
  };
}
