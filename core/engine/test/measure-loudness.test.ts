import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness, parseLoudnessSummary } from '../src/media/measure-loudness.js';
import { tempDir } from './media-fixtures.js';

const run = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
/** 1 s of silence, then 1 s of a 1 kHz sine whose peak is -6.0 dBFS (stereo WAV: samples exact). */
let tone: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  tone = path.join(dir, 'tone.wav');
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo:d=1'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000:duration=1'],
    ...['-filter_complex', '[1]volume=12.04dB,pan=stereo|c0=c0|c1=c0[s];[0][s]concat=n=2:v=0:a=1', '-c:a', 'pcm_f32le', tone],
  ]);
});
afterAll(async () => cleanup());

describe('measureLoudness (ffmpeg ebur128)', () => {
  it('measures the part that plays: peak, loudness; a scaled copy is as many dB lower', async () => {
    const full = await measureLoudness(tone, { mediaStart: 1, duration: 1 });
    // sine's amplitude is 1/8 (-18.06 dBFS) + 12.04 dB.
    expect(full.samplePeak).toBeCloseTo(-6, 0);
    expect(full.truePeak).toBeCloseTo(-6, 0);
    expect(full.integrated).not.toBeNull();
    const half = await measureLoudness(tone, { mediaStart: 1, duration: 1, volume: 0.5 });
    expect(half.samplePeak! - full.samplePeak!).toBeCloseTo(-6, 0);
    expect(half.integrated! - full.integrated!).toBeCloseTo(-6, 0);
  });

  it('digital silence has no peak and no integrated loudness', async () => {
    expect(await measureLoudness(tone, { duration: 1 })).toEqual({ integrated: null, range: 0, samplePeak: null, truePeak: null });
  });

  it('a file that is not audio is an ffmpeg-exited error naming it', async () => {
    await expect(measureLoudness(path.join(dir, 'nothing.wav'))).rejects.toMatchObject({ code: 'ffmpeg-exited' });
  });

  it('reads the numbers of the closing summary', () => {
    const summary = `Summary:

  Integrated loudness:
    I:         -16.2 LUFS
    Threshold: -26.3 LUFS

  Loudness range:
    LRA:         3.1 LU

  Sample peak:
    Peak:       -1.0 dBFS

  True peak:
    Peak:        0.4 dBFS`;
    expect(parseLoudnessSummary(summary)).toEqual({ integrated: -16.2, range: 3.1, samplePeak: -1, truePeak: 0.4 });
  });
});
