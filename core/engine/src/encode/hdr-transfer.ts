/** The two HDR transfer functions a video may carry: PQ (SMPTE ST 2084) and HLG (ARIB STD-B67). */
export type HdrTransfer = 'pq' | 'hlg';

/** ffprobe/ffmpeg names of each HDR transfer (`-color_trc`, zscale's `t=`). */
export const HDR_TRANSFER_NAMES: Record<HdrTransfer, 'smpte2084' | 'arib-std-b67'> = { pq: 'smpte2084', hlg: 'arib-std-b67' };

/** ffprobe's `color_transfer` -> the HDR transfer it names, or undefined for SDR/untagged. */
export function hdrTransfer(transfer: string | undefined): HdrTransfer | undefined {
  if (transfer === 'smpte2084') return 'pq';
  if (transfer === 'arib-std-b67') return 'hlg';
  return undefined;
}
