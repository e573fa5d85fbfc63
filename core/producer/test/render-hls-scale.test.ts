import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition } from '../src/index.js';
import { frameIndexProject, readFrameIndex } from './helpers/fixtures.js';
import { decodeFrames, ffmpeg, probe } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);

/** Every video frame of a file: key_frame flag and picture type, in order. */
async function videoFrames(file: string): Promise<{ key: boolean; type: string }[]> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=key_frame,pict_type', '-of', 'json', file],
    { maxBuffer: 16 << 20 },
  );
  return (JSON.parse(stdout) as { frames: { key_frame: number; pict_type: string }[] }).frames.map((f) => ({
    key: f.key_frame === 1,
    type: f.pict_type,
  }));
}

describe('--format hls', () => {
  let project: { dir: string; cleanup(): Promise<void> };
  beforeAll(async () => {
    // 25 frames at 10 fps with a tone: 1 s segments are 10 + 10 + 5 frames.
    project = await tempProject(frameIndexProject({ duration: 2.5, fps: 10, extraBody: '<audio src="tone.wav" data-start="0"></audio>' }));
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-ac', '2', path.join(project.dir, 'tone.wav')]);
  });
  afterAll(async () => project?.cleanup());

  it('writes a VOD playlist and MPEG-TS segments (H.264 + AAC), each starting on a keyframe, all frames once', async () => {
    const output = path.join(project.dir, 'stream');
    const result = await renderComposition({
      projectDir: project.dir,
      output,
      format: 'hls',
      hlsSegmentSeconds: 1,
      quality: 'draft',
      workers: 1,
    });
    expect(result.output).toBe(output);
    const files = (await readdir(output)).sort();
    expect(files).toEqual(['index.m3u8', 'segment_00000.ts', 'segment_00001.ts', 'segment_00002.ts']);
    // Nothing else was left beside it (the temp folder was renamed into place).
    expect((await readdir(project.dir)).filter((name) => name.includes('partial'))).toEqual([]);

    const playlist = await readFile(path.join(output, 'index.m3u8'), 'utf8');
    expect(playlist).toMatch(/^#EXTM3U/);
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    expect(playlist.match(/^segment_\d{5}\.ts$/gm)).toEqual(['segment_00000.ts', 'segment_00001.ts', 'segment_00002.ts']);
    const durations = [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    expect(durations.map((d) => Math.round(d * 10))).toEqual([10, 10, 5]);

    const perSegment: number[] = [];
    for (const name of files.filter((f) => f.endsWith('.ts'))) {
      const file = path.join(output, name);
      const info = await probe(file);
      expect(info.formatName).toBe('mpegts');
      expect(info.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      const frames = await videoFrames(file);
      // A keyframe (IDR, type I) at the segment's first frame and nowhere else.
      expect(frames[0]).toEqual({ key: true, type: 'I' });
      expect(frames.slice(1).filter((f) => f.key)).toEqual([]);
      perSegment.push(frames.length);
    }
    expect(perSegment).toEqual([10, 10, 5]);
  });

  it('plays end to end through ffmpeg: every frame of the composition once, in order, with sound', async () => {
    const playlist = path.join(project.dir, 'stream', 'index.m3u8');
    const info = await probe(playlist);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      codec_name: 'h264',
      width: 160,
      height: 90,
      pix_fmt: 'yuv420p',
      nb_read_frames: '25',
    });
    expect(info.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    const frames = await decodeFrames(playlist, 160, 90);
    expect(frames.map((frame) => readFrameIndex(frame))).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("a second render into the same folder replaces its own files and keeps the user's", async () => {
    const output = path.join(project.dir, 'stream');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(output, 'notes.txt'), 'mine');
    await renderComposition({ projectDir: project.dir, output, format: 'hls', hlsSegmentSeconds: 2, quality: 'draft', workers: 1 });
    expect((await readdir(output)).sort()).toEqual(['index.m3u8', 'notes.txt', 'segment_00000.ts', 'segment_00001.ts']);
  });
});

describe('--scale', () => {
  let project: { dir: string; cleanup(): Promise<void> };
  // Thin black text on white: its edges are where upscaling blurs.
  const text = '<div style="position:absolute;left:6px;top:30px;font:13px sans-serif;color:#000">Seekframe 1/2 lllIII</div>';
  beforeAll(async () => {
    project = await tempProject({
      'index.html': composition({ duration: 0.2, fps: 10, head: '<style>html,body{background:#fff!important}</style>', body: text }),
    });
  });
  afterAll(async () => project?.cleanup());

  it('renders width x scale by height x scale (mp4)', async () => {
    const output = path.join(project.dir, 'x2.mp4');
    const result = await renderComposition({ projectDir: project.dir, output, scale: 2, quality: 'draft', workers: 1 });
    expect(result).toMatchObject({ width: 320, height: 180 });
    const info = await probe(output);
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 180, nb_read_frames: '2' });
  });

  it('text is drawn at the output size: sharper than the same render upscaled by ffmpeg', async () => {
    const native = path.join(project.dir, 'native');
    const small = path.join(project.dir, 'small');
    await renderComposition({ projectDir: project.dir, output: native, format: 'png-sequence', scale: 2, workers: 1 });
    await renderComposition({ projectDir: project.dir, output: small, format: 'png-sequence', workers: 1 });
    const upscaled = path.join(project.dir, 'upscaled.png');
    await ffmpeg(['-i', path.join(small, 'frame_000001.png'), '-vf', 'scale=320:180:flags=bicubic', upscaled]);
    const [a] = await decodeFrames(path.join(native, 'frame_000001.png'), 320, 180);
    const [b] = await decodeFrames(upscaled, 320, 180);
    const sharpNative = edgeEnergy(a!, 320, 180);
    const sharpUpscaled = edgeEnergy(b!, 320, 180);
    // Both show the same text (similar ink), but the native render's edges are much steeper.
    expect(Math.abs(ink(a!) - ink(b!)) / ink(b!)).toBeLessThan(0.25);
    expect(sharpNative).toBeGreaterThan(sharpUpscaled * 1.3);
  });
});

/** Sum of squared horizontal and vertical luma differences: high-frequency energy of an image. */
function edgeEnergy(frame: Buffer, width: number, height: number): number {
  const luma = (x: number, y: number): number => {
    const i = (y * width + x) * 3;
    return (frame[i]! + frame[i + 1]! + frame[i + 2]!) / 3;
  };
  let sum = 0;
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) sum += (luma(x + 1, y) - luma(x, y)) ** 2 + (luma(x, y + 1) - luma(x, y)) ** 2;
  }
  return sum;
}

/** How much darker than white the image is in total (the amount of text). */
function ink(frame: Buffer): number {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += 255 - frame[i]!;
  return sum;
}

describe('hls in pieces', () => {
  it('is refused: its segments are cut by one encoder', async () => {
    const { checkSplittable } = await import('../src/index.js');
    expect(() => checkSplittable({ format: 'hls', encoder: { quality: 'draft', gpu: false, hlsSegmentFrames: 40 } })).toThrow(
      /hls cannot be rendered in pieces/,
    );
  });
});
