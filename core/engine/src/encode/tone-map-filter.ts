import { HDR_REFERENCE_WHITE_NITS } from './hdr-encoder-args.js';

/**
 * HDR (PQ or HLG, BT.2020, as tagged on the frames) -> SDR sRGB/BT.709 without clipping: zscale
 * linearises with the source's reference white (203 cd/m²) at 1.0, the tonemap filter's mobius
 * curve keeps everything below its knee as is and rolls the highlights off smoothly up to the
 * source's peak, then zscale converts primaries and transfer to what the page shows. Used for
 * the frames of HDR <video> clips (every render composites them in the page, which is SDR).
 * Needs zscale (libzimg), which Debian's ffmpeg has; without it the producer extracts the frames
 * untouched (highlights clip at SDR white) and says so in a warning.
 */
export const TONE_MAP_TO_SDR = [
  `zscale=t=linear:npl=${HDR_REFERENCE_WHITE_NITS}`,
  'format=gbrpf32le',
  'tonemap=mobius:desat=0',
  'zscale=p=bt709:t=iec61966-2-1:m=gbr:r=pc',
  'format=rgb48be',
].join(',');
