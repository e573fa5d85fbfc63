import { SeekframeError } from '@seekframe/composition';
import { probeHdrMetadata, type HdrMetadata, type HdrOutput } from '@seekframe/engine';
import type { HdrSource } from './open-media-page.js';
import type { OutputFormat } from '../plan/render-options.js';

type Warning = { type: 'warning'; code: string; message: string; details?: Record<string, unknown> };

export interface DynamicRangeInput {
  format: OutputFormat;
  hdr: boolean;
  sdr: boolean;
  sources: HdrSource[];
  /** ffmpeg has zscale: needed to write HDR and to tone-map HDR clips. */
  zscale: boolean;
  /** A hardware encoder --gpu picked (HDR is encoded in software). */
  hardwareEncoder?: string | undefined;
  /** Reads the source's mastering display / content light metadata (ffprobe). */
  readMetadata?: (input: string) => Promise<HdrMetadata>;
}

export interface DynamicRangeChoice {
  /** Set: the mp4 is 10-bit HEVC with these HDR tags. Unset: SDR (BT.709) as usual. */
  hdr?: HdrOutput;
  /** The hardware encoder stays in use (false when HDR output needs libx265). */
  keepHardwareEncoder: boolean;
  warnings: Warning[];
}

/**
 * HDR or SDR output. mp4 becomes HDR with --hdr, or by itself when a <video> clip is HDR (unless
 * --sdr): PQ if any HDR clip is PQ, else HLG (and PQ for --hdr with no HDR clip). The mastering
 * display and content light metadata of the first clip with the chosen transfer are copied.
 * Every other format is SDR; an HDR clip is then tone-mapped, and a warning says so.
 */
export async function chooseDynamicRange(input: DynamicRangeInput): Promise<DynamicRangeChoice> {
  const warnings: Warning[] = [];
  const names = input.sources.map((s) => s.src);
  if (input.sources.length > 0 && !input.zscale) {
    warnings.push({
      type: 'warning',
      code: 'hdr/no-tone-mapping',
      message: `This ffmpeg has no zscale filter, so HDR clips (${names.join(', ')}) are shown without tone mapping: everything above SDR white clips. Install an ffmpeg built with libzimg (Debian's apt ffmpeg is).`,
      details: { sources: names },
    });
  }
  const wantHdr = !input.sdr && input.format === 'mp4' && (input.hdr || input.sources.length > 0);
  if (!wantHdr) {
    if (input.sources.length > 0 && !input.sdr) {
      warnings.push({
        type: 'warning',
        code: 'hdr/sdr-output',
        message: `HDR clips (${names.join(', ')}) are tone-mapped to SDR: only mp4 output can be HDR, not ${input.format}.`,
        details: { sources: names },
      });
    }
    return { keepHardwareEncoder: true, warnings };
  }
  if (!input.zscale) {
    if (input.hdr) {
      throw new SeekframeError(
        'hdr-unsupported',
        "--hdr needs ffmpeg's zscale filter (libzimg) to convert the page to BT.2020 PQ/HLG, and this ffmpeg lacks it. Install an ffmpeg built with libzimg (apt-get install ffmpeg on Debian/Ubuntu), or drop --hdr.",
        {
          stage: 'config',
        },
      );
    }
    return { keepHardwareEncoder: true, warnings };
  }
  const pq = input.sources.find((s) => s.transfer === 'pq');
  const source = pq ?? input.sources[0];
  const transfer = source?.transfer ?? 'pq';
  const metadata = source ? await (input.readMetadata ?? probeHdrMetadata)(source.input) : {};
  if (input.hardwareEncoder) {
    warnings.push({
      type: 'warning',
      code: 'gpu/hdr-software',
      message: `--gpu: HDR output is 10-bit HEVC from libx265; ${input.hardwareEncoder} (8-bit H.264) is not used for this render.`,
    });
  }
  return { hdr: { transfer, ...metadata }, keepHardwareEncoder: false, warnings };
}
