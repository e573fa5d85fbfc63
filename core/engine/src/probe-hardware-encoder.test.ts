import { describe, expect, it } from 'vitest';
import { probeHardwareEncoder } from './probe-hardware-encoder.js';
import { buildEncoderArgs } from './encoder-args.js';
import { parseEncoderOptions } from './encoder-options.js';
import { HARDWARE_H264_ENCODERS } from './hardware-encoders.js';

describe('probeHardwareEncoder', () => {
  it('tries every hardware encoder for real and says why each failed on a GPU-less machine', async () => {
    const probe = await probeHardwareEncoder({ fresh: true });
    expect(probe.tried.map((t) => t.encoder)).toEqual(probe.encoder ? expect.any(Array) : [...HARDWARE_H264_ENCODERS]);
    if (probe.encoder === null) {
      for (const attempt of probe.tried) {
        expect(attempt.ok).toBe(false);
        expect(attempt.reason).toMatch(/\S/);
      }
      // This ffmpeg has nvenc compiled in; the failure must come from actually running it.
      expect(probe.tried.find((t) => t.encoder === 'h264_nvenc')?.reason).not.toBe('not built into this ffmpeg');
      expect(probe.tried.find((t) => t.encoder === 'h264_videotoolbox')?.reason).toBe('not built into this ffmpeg');
    }
    expect(probeHardwareEncoder()).toBe(probeHardwareEncoder());
  });
});

describe('hardware encoder arguments', () => {
  const base = { format: 'mp4', output: '/tmp/x.mp4', width: 64, height: 36, fps: { num: 30, den: 1 }, inputFormat: 'jpeg' } as const;
  it('swaps libx264 for the hardware encoder with its quality knob and upload filters', () => {
    const nvenc = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_nvenc', crf: 20 }), '/tmp/t.mp4');
    expect(nvenc).not.toContain('libx264');
    expect(nvenc.join(' ')).toContain('-c:v h264_nvenc -preset p5 -rc vbr -cq 20');
    const vaapi = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_vaapi', quality: 'draft' }), '/tmp/t.mp4');
    expect(vaapi.slice(0, 8)).toContain('-vaapi_device');
    expect(vaapi[vaapi.indexOf('-vf') + 1]).toMatch(/^colorspace=.*:space=bt709:.*:range=tv:fast=1,format=nv12,hwupload$/);
    expect(vaapi.join(' ')).toContain('-qp 28');
    const bitrate = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_qsv', videoBitrate: '4M' }), '/tmp/t.mp4');
    expect(bitrate.join(' ')).toContain('-c:v h264_qsv -b:v 4M');
  });
  it('is mp4 only', () => {
    expect(() => parseEncoderOptions({ ...base, format: 'webm', hardwareEncoder: 'h264_nvenc' })).toThrow(/mp4 only/);
  });
});
