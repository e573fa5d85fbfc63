import { HDR_REFERENCE_WHITE_NITS } from '../encode/hdr-encoder-args.js';

/**
 * How HDR highlights get through an 8-bit SDR browser (see render-hdr-passes.ts in the producer):
 * the page is captured twice, identical but for what HDR clips show.
 *   pass A shows S = the clip clipped at reference white (sRGB, BT.709), i.e. its SDR part;
 *   pass B shows S - h, where h = (L - 1) / (P - 1) is the headroom above white (linear light,
 *   L in units of reference white, P = the source's peak in the same units; h > 0 only where S = 1).
 * Browser compositing is affine in the pixel values (alpha blending, opacity, transforms), so
 * A - B = k·h with k what covers the clip, and the HDR picture in linear light is
 *   lin(A) + (A - B)·(P - 1).
 */

/** Linear-light peak of a source in units of reference white (203 cd/m²), from its metadata. */
export function headroomPeak(peakNits: number | undefined): number {
  const nits = peakNits !== undefined && Number.isFinite(peakNits) && peakNits > HDR_REFERENCE_WHITE_NITS ? peakNits : 1000;
  return nits / HDR_REFERENCE_WHITE_NITS;
}

/** ffmpeg's exposure filter multiplies by 2^e with e in [-3, 3]: a larger factor takes several. */
function multiply(factor: number): string[] {
  const stages: string[] = [];
  let e = Math.log2(factor);
  while (Math.abs(e) > 1e-9) {
    const step = Math.max(-3, Math.min(3, e));
    stages.push(`exposure=exposure=${step.toFixed(6)}:black=0`);
    e -= step;
  }
  return stages;
}

/**
 * One filter graph from an HDR clip to the two frame layers the passes show, as 16-bit RGB:
 * `[sdr]` = S and `[low]` = S - h. `rate` is the render frame rate (fps filter).
 */
export function hdrLayerGraph(rate: string, peak: number): string {
  const linear = `fps=${rate},zscale=t=linear:npl=${HDR_REFERENCE_WHITE_NITS},format=gbrpf32le,zscale=p=709:t=linear`;
  // (L - 1) with exposure's black level, then / (P - 1); negative values clip at the int conversion.
  const headroom = ['exposure=exposure=-1:black=1', ...multiply(1 / Math.max(peak - 1, 1e-3))].join(',');
  return (
    `[0:v]${linear},split[l1][l2];` +
    `[l1]zscale=t=iec61966-2-1:p=709,format=gbrp16le,split[s1][s2];` +
    `[l2]${headroom},format=gbrp16le[h];` +
    `[s2][h]blend=all_mode=subtract[low];` +
    `[s1]null[sdr]`
  );
}

/**
 * The merge of the two captured passes (inputs 0 = A, 1 = B, RGB PNG) into BT.2020 10-bit
 * PQ/HLG: lin(A) + (A - B)·(P - 1), then the same reference-white placement as hdrFilter.
 */
export function hdrMergeGraph(peak: number, transfer: 'smpte2084' | 'arib-std-b67'): string {
  return (
    `[0:v]format=gbrpf32le,split[a1][a2];[1:v]format=gbrpf32le[b];` +
    `[a2][b]blend=all_expr=(A-B)*${(peak - 1).toFixed(6)}[d];` +
    `[a1]zscale=tin=iec61966-2-1:pin=709:p=709:t=linear:npl=${HDR_REFERENCE_WHITE_NITS},format=gbrpf32le[al];` +
    `[al][d]blend=all_expr=A+B,zscale=tin=linear:pin=709:t=${transfer}:p=2020:m=2020_ncl:r=limited:npl=${HDR_REFERENCE_WHITE_NITS},format=yuv420p10le[v]`
  );
}
