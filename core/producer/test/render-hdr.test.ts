import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '@seekframe/engine';
import { renderComposition } from '../src/index.js';
import type { RenderEvent } from '../src/render/render-events.js';
import { decodeFrames, ffmpeg, pixel } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
let project: { dir: string; cleanup(): Promise<void> };

/**
 * A PQ (SMPTE 2084) BT.2020 clip with three grey bands, 32 px each: ~203 cd/m² (SDR white),
 * ~600 and ~1000 cd/m², plus mastering display (1000 cd/m² peak) and content light metadata.
 * Grey levels pass straight through the YUV conversion, so the PQ code value is the grey level.
 * Below the clip, an HTML white strip: the page's own SDR white.
 */
const MASTER_DISPLAY = 'G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)';

beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      width: 96,
      height: 64,
      duration: 0.2,
      fps: 10,
      body:
        '<video src="hdr.mp4" muted data-start="0" data-duration="0.2" style="position:absolute;left:0;top:0;width:96px;height:32px"></video>' +
        '<div style="position:absolute;left:0;top:32px;width:96px;height:32px;background:#fff"></div>' +
        // An opaque HTML box over the lower part of the brightest band: its highlights must not show through.
        '<div style="position:absolute;left:64px;top:22px;width:32px;height:10px;background:#000"></div>' +
        '<audio src="tone.wav" data-start="0" data-duration="0.2"></audio>',
    }),
  });
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=0.2',
    '-c:a',
    'pcm_s16le',
    path.join(project.dir, 'tone.wav'),
  ]);
  const band = (c: string): string => `color=c=${c}:s=32x32:r=10:d=0.4`;
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    band('#949494'),
    '-f',
    'lavfi',
    '-i',
    band('#b1b1b1'),
    '-f',
    'lavfi',
    '-i',
    band('#c0c0c0'),
    '-filter_complex',
    '[0:v][1:v][2:v]hstack=3,format=yuv420p10le[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx265',
    '-x265-params',
    `log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:master-display=${MASTER_DISPLAY}:max-cll=1000,400`,
    '-color_primaries',
    'bt2020',
    '-color_trc',
    'smpte2084',
    '-colorspace',
    'bt2020nc',
    '-tag:v',
    'hvc1',
    path.join(project.dir, 'hdr.mp4'),
  ]);
});
afterAll(async () => project?.cleanup());

/** The 10-bit luma codes (limited range: 64 black .. 940 peak) of the first frame at the given points. */
async function luma10(file: string, points: Array<[number, number]>, width = 96): Promise<number[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p10le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 16 << 20 },
  );
  return points.map(([x, y]) => stdout.readUInt16LE((y * width + x) * 2));
}

async function streamColour(file: string): Promise<Record<string, string>> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,profile,pix_fmt,color_range,color_space,color_transfer,color_primaries',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: Array<Record<string, string>> }).streams[0]!;
}

const BANDS: Array<[number, number]> = [
  [16, 16],
  [48, 16],
  [80, 16],
];
const WHITE: [number, number] = [48, 48];
/** PQ code of 203 cd/m² (BT.2408 reference white) in 10-bit limited range. */
const PQ_REFERENCE_WHITE = 573;

describe('HDR sources', () => {
  it('probeMedia reads the colour tags and names the HDR transfer', async () => {
    const info = await probeMedia(path.join(project.dir, 'hdr.mp4'));
    expect(info.color).toEqual({ primaries: 'bt2020', transfer: 'smpte2084', space: 'bt2020nc', range: 'tv' });
    expect(info.hdr).toBe('pq');
  });

  it('an HDR clip makes the mp4 10-bit HEVC with PQ/BT.2020 tags and the source mastering metadata, and keeps its levels above SDR white', async () => {
    const output = path.join(project.dir, 'auto.mp4');
    const events: RenderEvent[] = [];
    await renderComposition({ projectDir: project.dir, output, workers: 1, quality: 'draft' }, (e) => events.push(e));
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    // The soundtrack is muxed into the merged HDR file too.
    const { stdout: streams } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', output]);
    expect(streams.trim().split('\n').sort()).toEqual(['aac', 'hevc']);
    expect(await streamColour(output)).toMatchObject({
      codec_name: 'hevc',
      profile: 'Main 10',
      pix_fmt: 'yuv420p10le',
      color_range: 'tv',
      color_space: 'bt2020nc',
      color_transfer: 'smpte2084',
      color_primaries: 'bt2020',
    });
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-read_intervals',
      '%+#1',
      '-show_frames',
      '-show_entries',
      'frame=side_data_list',
      '-of',
      'json',
      output,
    ]);
    const sideData = (JSON.parse(stdout) as { frames: Array<{ side_data_list: Array<Record<string, unknown>> }> }).frames[0]!
      .side_data_list;
    expect(sideData).toContainEqual(
      expect.objectContaining({
        side_data_type: 'Mastering display metadata',
        max_luminance: '10000000/10000',
        min_luminance: '50/10000',
        red_x: '34000/50000',
      }),
    );
    expect(sideData).toContainEqual(
      expect.objectContaining({ side_data_type: 'Content light level metadata', max_content: 1000, max_average: 400 }),
    );

    const [b1, b2, b3, white, covered] = await luma10(output, [...BANDS, WHITE, [80, 27]]);
    // The page's white sits at the BT.2408 reference white (203 cd/m²), not at PQ's 10000.
    expect(Math.abs(white! - PQ_REFERENCE_WHITE)).toBeLessThanOrEqual(6);
    // The clip's own levels come through the SDR browser: 203, ~600 and ~1000 cd/m² are PQ codes
    // 572, 672, 724 in the source (measured in the render: 573, 670, 722). Above the page's white:
    // a single SDR capture can only reach the white strip's level.
    for (const [got, source] of [
      [b1, 572],
      [b2, 672],
      [b3, 724],
    ] as const)
      expect(Math.abs(got! - source)).toBeLessThanOrEqual(8);
    expect(b3!).toBeGreaterThan(white! + 100);
    // Under the opaque HTML box the highlight is gone (black is code 64).
    expect(covered!).toBeLessThan(100);
  });

  it('--hdr on a composition without HDR clips still writes PQ HEVC, without mastering metadata', async () => {
    const plain = await tempProject({
      'index.html': composition({
        width: 96,
        height: 64,
        duration: 0.1,
        fps: 10,
        body: '<div style="width:96px;height:64px;background:#fff"></div>',
      }),
    });
    try {
      const output = path.join(plain.dir, 'hdr.mp4');
      await renderComposition({ projectDir: plain.dir, output, workers: 1, quality: 'draft', hdr: true });
      expect(await streamColour(output)).toMatchObject({
        codec_name: 'hevc',
        pix_fmt: 'yuv420p10le',
        color_transfer: 'smpte2084',
        color_primaries: 'bt2020',
      });
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-read_intervals',
        '%+#1',
        '-show_frames',
        '-show_entries',
        'frame=side_data_list',
        '-of',
        'json',
        output,
      ]);
      expect(stdout).not.toContain('Mastering display metadata');
      const [white] = await luma10(output, [[48, 32]]);
      expect(Math.abs(white! - PQ_REFERENCE_WHITE)).toBeLessThanOrEqual(6);
    } finally {
      await plain.cleanup();
    }
  });

  it('--sdr writes BT.709 H.264 with the HDR clip tone-mapped: the three bands stay distinct below white', async () => {
    const output = path.join(project.dir, 'sdr.mp4');
    await renderComposition({ projectDir: project.dir, output, workers: 1, quality: 'high', sdr: true });
    expect(await streamColour(output)).toMatchObject({
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      color_transfer: 'bt709',
      color_primaries: 'bt709',
      color_space: 'bt709',
    });
    const [frame] = await decodeFrames(output, 96, 64);
    const [b1, b2, b3] = BANDS.map(([x, y]) => pixel(frame!, 96, x, y)[1]);
    const white = pixel(frame!, 96, ...WHITE)[1];
    // Measured 213, 242, 250 against the white strip's 255. Converted without tone mapping all
    // three would be 255; PQ codes shown as if sRGB would give a dim 147, 176, 192.
    expect(b1!).toBeGreaterThan(195);
    expect(b2! - b1!).toBeGreaterThan(10);
    expect(b3! - b2!).toBeGreaterThan(2);
    expect(b3!).toBeLessThan(white);
  });

  it('a webm render tone-maps the HDR clip and says why it is not HDR', async () => {
    const events: RenderEvent[] = [];
    await renderComposition({ projectDir: project.dir, output: path.join(project.dir, 'x.webm'), workers: 1, quality: 'draft' }, (e) =>
      events.push(e),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'warning',
        code: 'hdr/sdr-output',
        message: expect.stringMatching(/only mp4 output can be HDR, not webm/),
      }),
    );
  });
});
