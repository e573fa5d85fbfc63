import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeHardwareProbe, probeHardwareEncoder } from '../src/encode/probe-hardware-encoder.js';
import { buildEncoderArgs } from '../src/encode/encoder-args.js';
import { parseEncoderOptions } from '../src/encode/encoder-options.js';
import { HARDWARE_H264_ENCODERS } from '../src/encode/hardware-encoders.js';
import { findFfmpeg } from '../src/system/find-ffmpeg.js';

const temp: string[] = [];
afterAll(async () => Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true }))));

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
      expect(describeHardwareProbe(probe)).toMatch(
        /^h264_nvenc: .+; h264_vaapi: .+; h264_qsv: .+; h264_videotoolbox: not built into this ffmpeg$/,
      );
    }
    expect(probeHardwareEncoder()).toBe(probeHardwareEncoder());
  });

  it('an ffmpeg built without any hardware encoder: every backend "not built in", and no encode is attempted', async () => {
    // The real ffmpeg behind a wrapper whose encoder list lacks every hardware encoder; the wrapper
    // logs each call so we can see that no one-frame test was run for an encoder that is not there.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-nohw-'));
    temp.push(dir);
    const real = (await findFfmpeg()).ffmpeg;
    const log = path.join(dir, 'calls.log');
    const wrapper = path.join(dir, 'ffmpeg');
    await writeFile(
      wrapper,
      `#!/bin/sh\necho "$*" >> '${log}'\ncase " $* " in *" -encoders "*) '${real}' "$@" | grep -Ev '_(nvenc|vaapi|qsv|videotoolbox) '; exit 0;; esac\nexec '${real}' "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    const probe = await probeHardwareEncoder({ ffmpeg: wrapper });
    expect(probe).toEqual({
      encoder: null,
      tried: HARDWARE_H264_ENCODERS.map((encoder) => ({ encoder, ok: false, reason: 'not built into this ffmpeg' })),
    });
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['-hide_banner -encoders']);
    // Cached per binary: the wrapper's answer does not leak into the default ffmpeg's probe.
    expect(probeHardwareEncoder({ ffmpeg: wrapper })).not.toBe(probeHardwareEncoder());
  });
});

describe('hardware encoder arguments in the encoder command line', () => {
  const base = { format: 'mp4', output: '/tmp/x.mp4', width: 64, height: 36, fps: { num: 30, den: 1 }, inputFormat: 'jpeg' } as const;
  it('swaps libx264 for the hardware encoder with its quality knob and upload filters', () => {
    const nvenc = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_nvenc', crf: 20 }), '/tmp/t.mp4');
    expect(nvenc).not.toContain('libx264');
    expect(nvenc.join(' ')).toContain('-c:v h264_nvenc -preset p5 -rc vbr -cq 20 -b:v 0');
    const vaapi = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_vaapi', quality: 'draft' }), '/tmp/t.mp4');
    expect(vaapi.slice(0, 8)).toContain('-vaapi_device');
    expect(vaapi[vaapi.indexOf('-vf') + 1]).toMatch(/^colorspace=.*:space=bt709:.*:range=tv:fast=1,format=nv12,hwupload$/);
    expect(vaapi.join(' ')).toContain('-rc_mode CQP -qp 28');
    const bitrate = buildEncoderArgs(parseEncoderOptions({ ...base, hardwareEncoder: 'h264_qsv', videoBitrate: '4M' }), '/tmp/t.mp4');
    expect(bitrate.join(' ')).toContain('-c:v h264_qsv -preset medium -b:v 4M');
  });
  it('is mp4 only', () => {
    expect(() => parseEncoderOptions({ ...base, format: 'webm', hardwareEncoder: 'h264_nvenc' })).toThrow(/mp4 only/);
  });
});
