import { findFfmpeg } from '../system/find-ffmpeg.js';
import { HARDWARE_H264_ENCODERS, hardwareEncoderArgs, type HardwareEncoder } from './hardware-encoders.js';
import { NO_PROTOCOLS } from '../system/ffmpeg-inputs.js';
import { runProcess, tailLines } from '../system/run-process.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

export interface HardwareEncoderProbe {
  /** The first encoder that produced a real frame, or null: fall back to libx264. */
  encoder: HardwareEncoder | null;
  tried: Array<{ encoder: HardwareEncoder; ok: boolean; reason?: string }>;
}

/** A driver that hangs must not hang the render: each one-frame test gets this long. */
const ENCODE_TIMEOUT_MS = 20_000;

const cache = new Map<string, Promise<HardwareEncoderProbe>>();

/**
 * `--gpu` for mp4: tries each hardware H.264 encoder on one real frame (being compiled into
 * ffmpeg says nothing about a driver or a device being present), and says why each one failed.
 * Cached per ffmpeg binary for the process.
 */
export function probeHardwareEncoder(options: { ffmpeg?: string; fresh?: boolean } = {}): Promise<HardwareEncoderProbe> {
  const key = options.ffmpeg ?? '';
  let probe = cache.get(key);
  if (!probe || options.fresh) {
    probe = runProbe(options.ffmpeg);
    cache.set(key, probe);
    probe.catch(() => cache.delete(key));
  }
  return probe;
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
    const { inputArgs, filters, args } = hardwareEncoderArgs(encoder, { quality: 'draft', crf: 23 });
    const result = await runProcess(
      ffmpeg,
      [
        ...ffmpegPreamble({ overwrite: false }),
        ...inputArgs,
        ...NO_PROTOCOLS,
        '-f',
        'lavfi',
        '-i',
        'color=c=gray:size=128x128:rate=1:duration=1',
        '-frames:v',
        '1',
        '-vf',
        filters.join(','),
        ...args,
        '-f',
        'null',
        '-',
      ],
      { timeoutMs: ENCODE_TIMEOUT_MS },
    );
    if (result.code === 0) {
      tried.push({ encoder, ok: true });
      return { encoder, tried };
    }
    const why = result.signal
      ? `no answer within ${ENCODE_TIMEOUT_MS / 1000} s (stopped)`
      : tailLines(result.stderr, 2).replace(/\n/g, ' ') || `exit code ${result.code}`;
    tried.push({ encoder, ok: false, reason: why });
  }
  return { encoder: null, tried };
}

/** One sentence per backend: what `--gpu` tried and why each was not used. */
export function describeHardwareProbe(probe: HardwareEncoderProbe): string {
  return probe.tried.map((t) => (t.ok ? `${t.encoder}: works` : `${t.encoder}: ${t.reason ?? 'failed'}`)).join('; ');
}
