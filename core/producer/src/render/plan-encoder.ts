import { parseEncoderOptions } from '@seekframe/engine';
import { hlsSegmentFrames } from '../plan/output-size.js';
import type { RenderPlan } from '../plan/render-plan.js';
import type { Fps, RenderSpec } from '../plan/render-spec.js';

/**
 * The plan's encoder settings from the spec, checked now (crf only for mp4/webm, even sizes for
 * H.264...) so that a wrong combination fails before capture, not after it. HDR is added later,
 * once the media stage found the clips that decide it.
 */
export function planEncoder(spec: RenderSpec, size: { width: number; height: number }, fps: Fps): RenderPlan['encoder'] {
  const encoder: RenderPlan['encoder'] = {
    quality: spec.quality,
    ...(spec.crf === undefined ? {} : { crf: spec.crf }),
    ...(spec.videoBitrate === undefined ? {} : { videoBitrate: spec.videoBitrate }),
    ...(spec.format === 'gif' ? { gifLoop: spec.gifLoop } : {}),
    ...(spec.format === 'hls' ? { hlsSegmentFrames: hlsSegmentFrames(spec.hlsSegmentSeconds, fps) } : {}),
    gpu: spec.gpu,
  };
  const { gpu: _gpu, hdr: _hdr, ...checked } = encoder;
  parseEncoderOptions({
    format: spec.format,
    output: spec.output ?? 'render',
    width: size.width,
    height: size.height,
    fps,
    inputFormat: 'png',
    ...checked,
  });
  return encoder;
}
