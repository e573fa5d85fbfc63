import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractHdrLayers } from '../src/media/extract-hdr-layers.js';
import { hdrLayerGraph, hdrMergeGraph, headroomPeak } from '../src/media/hdr-layers.js';
import { mergeHdrLayers } from '../src/media/merge-hdr-layers.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-hdr-layers-'));
  // PQ BT.2020 grey bands at about 203, 1000 and 4000 cd/m² (PQ codes ~572, ~724, ~856).
  const band = (c: string): string => `color=c=${c}:s=32x32:r=10:d=0.2`;
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    band('#949494'),
    '-f',
    'lavfi',
    '-i',
    band('#c0c0c0'),
    '-f',
    'lavfi',
    '-i',
    band('#e6e6e6'),
    '-filter_complex',
    '[0:v][1:v][2:v]hstack=3,format=yuv420p10le[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx265',
    '-x265-params',
    'log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc',
    '-color_primaries',
    'bt2020',
    '-color_trc',
    'smpte2084',
    '-colorspace',
    'bt2020nc',
    path.join(dir, 'hdr.mp4'),
  ]);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The same bands in HLG (ARIB STD-B67). */
async function hlgClip(): Promise<string> {
  const file = path.join(dir, 'hlg.mp4');
  const band = (c: string): string => `color=c=${c}:s=32x32:r=10:d=0.2`;
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    band('#a0a0a0'),
    '-f',
    'lavfi',
    '-i',
    band('#d0d0d0'),
    '-f',
    'lavfi',
    '-i',
    band('#f0f0f0'),
    '-filter_complex',
    '[0:v][1:v][2:v]hstack=3,format=yuv420p10le[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx265',
    '-x265-params',
    'log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc',
    '-color_primaries',
    'bt2020',
    '-color_trc',
    'arib-std-b67',
    '-colorspace',
    'bt2020nc',
    file,
  ]);
  return file;
}

async function lumaCodes(file: string): Promise<number[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p10le', 'pipe:1'],
    { encoding: 'buffer' },
  );
  return [16, 48, 80].map((x) => stdout.readUInt16LE((16 * 96 + x) * 2));
}

describe('HDR layers', () => {
  it('peak in units of reference white: metadata, else 1000 cd/m²', () => {
    expect(headroomPeak(4000)).toBeCloseTo(4000 / 203, 6);
    expect(headroomPeak(undefined)).toBeCloseTo(1000 / 203, 6);
    expect(headroomPeak(100)).toBeCloseTo(1000 / 203, 6);
  });

  it("splits factors beyond exposure's ±3 EV into stages", () => {
    // 1 / (P - 1) for P = 10000/203: log2 = -5.59 -> -3 then -2.59.
    expect(hdrLayerGraph('10/1', 10000 / 203)).toMatch(
      /exposure=exposure=-1:black=1,exposure=exposure=-3\.000000:black=0,exposure=exposure=-2\.5\d+:black=0,format=gbrp16le\[h\]/,
    );
    expect(hdrMergeGraph(5, 'smpte2084')).toContain('blend=all_expr=(A-B)*4.000000[d]');
  });

  it('S and S - h, merged back with nothing over the clip, give the source levels (PQ codes within 3)', async () => {
    const peak = headroomPeak(4100);
    const layers = await extractHdrLayers(path.join(dir, 'hdr.mp4'), path.join(dir, 'layers'), { fps: { num: 10, den: 1 }, peak });
    expect(layers.count).toBe(2);
    const output = path.join(dir, 'merged.mp4');
    await mergeHdrLayers({
      passA: layers.sdrDir,
      passB: layers.lowDir,
      fps: { num: 10, den: 1 },
      peak,
      hdr: { transfer: 'pq' },
      quality: 'high',
      output,
    });
    const source = await lumaCodes(path.join(dir, 'hdr.mp4'));
    const merged = await lumaCodes(output);
    expect(source.map((code) => Math.round(code / 4))).toEqual([143, 181, 214]);
    merged.forEach((code, i) => expect(Math.abs(code - source[i]!)).toBeLessThanOrEqual(3));
  });

  it('the same round trip for HLG', async () => {
    const clip = await hlgClip();
    const peak = headroomPeak(undefined);
    const layers = await extractHdrLayers(clip, path.join(dir, 'hlg-layers'), { fps: { num: 10, den: 1 }, peak });
    const output = path.join(dir, 'hlg-merged.mp4');
    await mergeHdrLayers({
      passA: layers.sdrDir,
      passB: layers.lowDir,
      fps: { num: 10, den: 1 },
      peak,
      hdr: { transfer: 'hlg' },
      quality: 'high',
      output,
    });
    const source = await lumaCodes(clip);
    const merged = await lumaCodes(output);
    // Above HLG's reference white (75 %, code ~721) for the two brighter bands.
    expect(source[1]!).toBeGreaterThan(721);
    merged.forEach((code, i) => expect(Math.abs(code - source[i]!)).toBeLessThanOrEqual(3));
  });
});
