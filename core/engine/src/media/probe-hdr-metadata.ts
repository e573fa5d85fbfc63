import { z } from 'zod';
import { mediaFileProbeArgs } from '../system/ffmpeg-inputs.js';
import { ffprobePath } from '../system/ffmpeg-paths.js';
import { runProcess } from '../system/run-process.js';

/** Static HDR metadata in the forms libx265 takes (`master-display=`, `max-cll=`). */
export interface HdrMetadata {
  /** `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)`: chromaticities in 1/50000, luminance in 1/10000 cd/m². */
  masterDisplay?: string;
  /** `MaxCLL,MaxFALL` in cd/m². */
  maxCll?: string;
}

const rational = z.union([z.string(), z.number()]).transform((v) => {
  if (typeof v === 'number') return v;
  const [num, den] = v.split('/').map(Number);
  return den === undefined ? num! : num! / den;
});

const masteringSchema = z.object({
  side_data_type: z.literal('Mastering display metadata'),
  red_x: rational,
  red_y: rational,
  green_x: rational,
  green_y: rational,
  blue_x: rational,
  blue_y: rational,
  white_point_x: rational,
  white_point_y: rational,
  min_luminance: rational,
  max_luminance: rational,
});
const lightSchema = z.object({
  side_data_type: z.literal('Content light level metadata'),
  max_content: z.number(),
  max_average: z.number(),
});

/**
 * Mastering display and content light metadata live in the bitstream (HEVC SEI) or the container
 * (mp4 mdcv/clli); ffprobe shows either on the first decoded frame, so one frame is read.
 * Returns {} when the source has none (or ffprobe cannot tell): the output then carries none.
 */
export async function probeHdrMetadata(file: string, options: { ffprobe?: string } = {}): Promise<HdrMetadata> {
  const result = await runProcess(
    ffprobePath(options.ffprobe),
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-read_intervals',
      '%+#1',
      '-show_frames',
      '-show_entries',
      'frame=side_data_list',
      '-print_format',
      'json',
      ...mediaFileProbeArgs(file),
    ],
    { timeoutMs: 30_000 },
  ).catch(() => undefined);
  if (!result || result.code !== 0) return {};
  let frames: unknown;
  try {
    frames = (JSON.parse(result.stdout) as { frames?: unknown }).frames;
  } catch {
    return {};
  }
  const sideData = Array.isArray(frames) ? ((frames[0] as { side_data_list?: unknown[] } | undefined)?.side_data_list ?? []) : [];
  return hdrMetadataFromSideData(sideData);
}

/** ffprobe side data -> x265 parameters; pure, so tests feed ffprobe's own shapes. */
export function hdrMetadataFromSideData(sideData: readonly unknown[]): HdrMetadata {
  const out: HdrMetadata = {};
  for (const entry of sideData) {
    const mastering = masteringSchema.safeParse(entry);
    if (mastering.success) {
      const m = mastering.data;
      const xy = (x: number, y: number): string => `(${Math.round(x * 50000)},${Math.round(y * 50000)})`;
      out.masterDisplay = `G${xy(m.green_x, m.green_y)}B${xy(m.blue_x, m.blue_y)}R${xy(m.red_x, m.red_y)}WP${xy(m.white_point_x, m.white_point_y)}L(${Math.round(m.max_luminance * 10000)},${Math.round(m.min_luminance * 10000)})`;
    }
    const light = lightSchema.safeParse(entry);
    if (light.success) out.maxCll = `${light.data.max_content},${light.data.max_average}`;
  }
  return out;
}
