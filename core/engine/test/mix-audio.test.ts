import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixAudio } from '../src/media/mix-audio.js';
import { probeMedia } from '../src/media/probe-media.js';
import { filterLog, sineAudio, tempDir } from './media-fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
let tone: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  tone = await sineAudio(path.join(dir, 'tone.m4a'), 2);
});
afterAll(async () => cleanup());

/** [start, end] pairs of silence (below -50 dB for at least 0.1 s). */
async function silences(file: string): Promise<Array<[number, number]>> {
  const log = await filterLog(file, 'silencedetect=noise=-50dB:d=0.1');
  const starts = [...log.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...log.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.map((s, i) => [s, ends[i] ?? Infinity]);
}

describe('mixAudio', () => {
  it('delays a track to its start: the first 0.5 s is silent, length is exact', async () => {
    const output = path.join(dir, 'offset.m4a');
    await mixAudio([{ file: tone, start: 0.5, mediaStart: 0, duration: 1.5, volume: 1 }], 2, output, 'aac');
    const info = await probeMedia(output);
    expect(info.duration).toBeCloseTo(2, 1);
    const quiet = await silences(output);
    expect(quiet).toHaveLength(1);
    expect(quiet[0]![0]).toBeCloseTo(0, 1);
    expect(quiet[0]![1]).toBeCloseTo(0.5, 1);
  });

  it('trims with mediaStart/duration and pads the tail with silence (opus)', async () => {
    const output = path.join(dir, 'trim.opus');
    await mixAudio([{ file: tone, start: 0, mediaStart: 1, duration: 0.5, volume: 0.5 }], 1.5, output, 'opus');
    const info = await probeMedia(output);
    expect(info.streams[0]?.codec).toBe('opus');
    expect(info.duration).toBeCloseTo(1.5, 1);
    const quiet = await silences(output);
    expect(quiet).toHaveLength(1);
    expect(quiet[0]![0]).toBeCloseTo(0.5, 1);
  });

  it('sums tracks without normalising their volume', async () => {
    const one = path.join(dir, 'one.m4a');
    const two = path.join(dir, 'two.m4a');
    const track = { file: tone, start: 0, mediaStart: 0, duration: 1, volume: 0.25 };
    await mixAudio([track], 1, one, 'aac');
    await mixAudio([track, track], 1, two, 'aac');
    const rms = async (file: string): Promise<number> =>
      Number([...(await filterLog(file, 'astats')).matchAll(/RMS level dB: (-?[\d.]+)/g)].at(-1)?.[1]);
    // Two identical tracks summed have twice the amplitude: +6 dB. amix's default would give 0 dB.
    expect((await rms(two)) - (await rms(one))).toBeCloseTo(6, 0);
  });

  it('fails naming the file and leaves no partial output', async () => {
    const folder = path.join(dir, 'failed');
    await expect(
      mixAudio(
        [{ file: path.join(dir, 'nope.wav'), start: 0, mediaStart: 0, duration: 1, volume: 1 }],
        1,
        path.join(folder, 'mix.m4a'),
        'aac',
      ),
    ).rejects.toMatchObject({ code: 'audio-mix-failed', message: expect.stringContaining('nope.wav') });
    expect(await readdir(folder)).toEqual([]);
  });
});
