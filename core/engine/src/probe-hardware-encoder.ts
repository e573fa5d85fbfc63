import { findFfmpeg } from './find-ffmpeg.js';
import { HARDWARE_H264_ENCODERS, hardwareEncoderArgs, type HardwareEncoder } from './hardware-encoders.js';
import { runProcess, tailLines } from './run-process.js';

export interface HardwareEncoderProbe {
  /** The first encoder that produced a real frame, or null: fall back to libx264. */
  encoder: HardwareEncoder | null;
  tried: Array<{ encoder: HardwareEncoder; ok: boolean; reason?: string }>;
}

let cached: Promise<HardwareEncoderProbe> | undefined;

/**
 * `--gpu` for mp4: tries each hardware H.264 encoder on one real frame (being compiled into
 * ffmpeg says nothing about a driver or a device being present), and says why each one failed.
 * Cached for the process.
 */
export function probeHardwareEncoder(options: { ffmpeg?: string; fresh?: boolean } = {}): Promise<HardwareEncoderProbe> {
  if (!cached || options.fresh) cached = runProbe(options.ffmpeg);
  return cached;
}

async function runProbe(explicit: string | undefined): Promise<HardwareEncoderProbe> {
  const ffmpeg = explicit ?? (await findFfmpeg()).ffmpeg;
  const listing = await runProcess(ffmpeg, ['-hide_banner', '-encoders'], { timeoutMs: 15_000 });
  const tried: HardwareEncoderProbe['tried'] = [];
  for (const encoder of HARDWARE_H264_ENCODERS) {
    if (!new RegExp(`^\\s*V\\S*\\s+${encoder}\\s`, 'm').test(listing.stdout)) {
      tried.push({ encoder, ok: false, reason: 'not built into this ffmpeg' });
      continue;
    }
    const { inputArgs, filters, args } = hardwareEncoderArgs(encoder, 23);
    const result = await runProcess(
      ffmpeg,
      ['-hide_banner', '-nostdin', '-loglevel', 'error', ...inputArgs, '-f', 'lavfi', '-i', 'color=c=gray:size=128x128:rate=1:duration=1',
        '-frames:v', '1', '-vf', filters.join(','), ...args, '-f', 'null', '-'],
      { timeoutMs: 20_000 },
    );
    if (result.code === 0) {
      tried.push({ encoder, ok: true });
      return { encoder, tried };
    }
    tried.push({ encoder, ok: false, reason: tailLines(result.stderr, 2).replace(/\n/g, ' ') || `exit code ${result.code}` });
  }
  return { encoder: null, tried };
}
