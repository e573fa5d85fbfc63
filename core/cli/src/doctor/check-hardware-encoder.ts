import { describeHardwareProbe, type HardwareEncoderProbe } from '@seekframe/engine';
import type { CheckResult } from './check-result.js';

/** `--gpu` is optional: no working hardware encoder is fine (software encoding), so never a warning. */
export function checkHardwareEncoder(probe: HardwareEncoderProbe | Error): CheckResult {
  const base = { id: 'hardware-encoder', title: 'Hardware encoder' };
  if (probe instanceof Error) return { ...base, status: 'warn', summary: 'could not be tested', fix: probe.message };
  if (probe.encoder) {
    return { ...base, status: 'ok', summary: `${probe.encoder} encodes here: render --gpu uses it for mp4`, details: { ...probe } };
  }
  return {
    ...base,
    status: 'ok',
    summary: `none works here; render --gpu falls back to libx264 (${describeHardwareProbe(probe)})`,
    details: { ...probe },
  };
}
