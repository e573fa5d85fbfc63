import { HDR_TRANSFER_NAMES, type HdrTransfer } from './hdr-transfer.js';
import type { HdrMetadata } from '../media/probe-hdr-metadata.js';

/** What an HDR mp4 carries: the transfer, and the source's static metadata when it had any. */
export interface HdrOutput extends HdrMetadata {
  transfer: HdrTransfer;
}

/**
 * BT.2408's reference white: SDR white (#fff on the page) is placed at 203 cd/m² in PQ, and at
 * 75% signal in HLG, so HTML content looks as bright next to HDR video as on an SDR screen.
 */
export const HDR_REFERENCE_WHITE_NITS = 203;

/**
 * The page's pixels (sRGB, BT.709 primaries) as BT.2020 10-bit PQ or HLG, limited range. zscale
 * does the transfer and primaries maths in linear light; JPEG frames are BT.601 full-range YCbCr.
 */
export function hdrFilter(inputFormat: 'jpeg' | 'png' | 'bgra' | 'i420', transfer: HdrTransfer): string {
  const input =
    inputFormat === 'jpeg'
      ? 'tin=iec61966-2-1:pin=709:min=470bg:rin=full'
      : inputFormat === 'i420'
        ? 'tin=iec61966-2-1:pin=709:min=709:rin=limited'
        : 'tin=iec61966-2-1:pin=709';
  return `zscale=${input}:t=${HDR_TRANSFER_NAMES[transfer]}:p=2020:m=2020_ncl:r=limited:npl=${HDR_REFERENCE_WHITE_NITS},format=yuv420p10le`;
}

/**
 * H.265 Main10 through libx265 (Debian's ffmpeg has it; HDR10 players expect HEVC, and H.264
 * High10 plays almost nowhere in hardware). Colour tags go both into the bitstream (VUI, via
 * x265-params) and the container, plus mastering display / content light SEI when known.
 */
export function hdrVideoArgs(hdr: HdrOutput, q: { preset: string; crf: number; videoBitrate?: string | undefined }): string[] {
  const trc = HDR_TRANSFER_NAMES[hdr.transfer];
  const params = [
    'log-level=error',
    'colorprim=bt2020',
    `transfer=${trc}`,
    'colormatrix=bt2020nc',
    'range=limited',
    ...(hdr.masterDisplay ? [`master-display=${hdr.masterDisplay}`] : []),
    ...(hdr.maxCll ? [`max-cll=${hdr.maxCll}`] : []),
  ];
  return [
    '-c:v',
    'libx265',
    '-preset',
    q.preset,
    '-profile:v',
    'main10',
    '-pix_fmt',
    'yuv420p10le',
    ...(q.videoBitrate ? ['-b:v', q.videoBitrate] : ['-crf', String(q.crf)]),
    '-x265-params',
    params.join(':'),
    // hvc1: the sample entry Apple players require for HEVC in mp4.
    '-tag:v',
    'hvc1',
    '-colorspace',
    'bt2020nc',
    '-color_primaries',
    'bt2020',
    '-color_trc',
    trc,
    '-color_range',
    'tv',
  ];
}
