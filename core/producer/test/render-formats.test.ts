import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition } from '../src/index.js';
import { frameIndexProject } from './helpers/fixtures.js';
import { probe } from './helpers/media-tools.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  const { tempProject } = await import('./helpers/temp-project.js');
  project = await tempProject(frameIndexProject({ duration: 0.5, fps: 10 }));
});
afterAll(async () => project?.cleanup());

/** Alpha of pixel (x, y) of the first frame, decoded to RGBA by ffmpeg. */
async function alphaAt(file: string, x: number, y: number): Promise<number> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      ...(file.endsWith('.webm') ? ['-c:v', 'libvpx-vp9'] : []),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      'pipe:1',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 22,
    },
  );
  return stdout[(y * 160 + x) * 4 + 3]!;
}

describe('output formats (ffprobe)', () => {
  it('mp4: H.264 yuv420p, 5 frames, 0.5 s', async () => {
    const output = path.join(project.dir, 'out.mp4');
    await renderComposition({ projectDir: project.dir, output, format: 'mp4', quality: 'draft', workers: 1 });
    const info = await probe(output);
    expect(info.streams).toHaveLength(1);
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 160, height: 90, nb_read_frames: '5' });
    expect(info.duration).toBeCloseTo(0.5, 1);
  });

  it('mov: ProRes 4444 with alpha; the empty page area is transparent', async () => {
    const output = path.join(project.dir, 'out.mov');
    await renderComposition({ projectDir: project.dir, output, format: 'mov', workers: 1 });
    const info = await probe(output);
    expect(info.streams[0]).toMatchObject({ codec_name: 'prores', nb_read_frames: '5' });
    expect(info.streams[0]?.pix_fmt).toMatch(/^yuva444p/);
    expect(info.duration).toBeCloseTo(0.5, 1);
    expect(await alphaAt(output, 80, 80)).toBe(0);
    expect(await alphaAt(output, 10, 30)).toBe(255);
  });

  it('webm: VP9 with the alpha_mode tag and a transparent background', async () => {
    const output = path.join(project.dir, 'out.webm');
    await renderComposition({ projectDir: project.dir, output, format: 'webm', quality: 'draft', workers: 1 });
    const info = await probe(output);
    expect(info.streams[0]).toMatchObject({ codec_name: 'vp9', nb_read_frames: '5' });
    expect(Object.entries(info.streams[0]!.tags ?? {}).some(([k, v]) => k.toLowerCase() === 'alpha_mode' && v === '1')).toBe(true);
    expect(info.duration).toBeCloseTo(0.5, 1);
    expect(await alphaAt(output, 80, 80)).toBe(0);
    expect(await alphaAt(output, 10, 30)).toBeGreaterThan(240);
  });

  it('gif: palette GIF, 5 frames, loop count written', async () => {
    const output = path.join(project.dir, 'out.gif');
    await renderComposition({ projectDir: project.dir, output, format: 'gif', gifLoop: 3, workers: 1 });
    const info = await probe(output);
    expect(info.streams[0]).toMatchObject({ codec_name: 'gif', nb_read_frames: '5', width: 160, height: 90 });
    expect(info.duration).toBeCloseTo(0.5, 1);
    // NETSCAPE2.0 application extension: sub-block id 1, then the loop count (little endian).
    const bytes = (await import('node:fs')).readFileSync(output);
    const at = bytes.indexOf('NETSCAPE2.0');
    expect(at).toBeGreaterThan(0);
    expect(bytes.readUInt16LE(at + 13)).toBe(3);
  });

  it('png-sequence: frame_NNNNNN.png RGBA files with transparency', async () => {
    const output = path.join(project.dir, 'seq');
    const result = await renderComposition({ projectDir: project.dir, output, format: 'png-sequence', workers: 1 });
    const files = (await readdir(output)).sort();
    expect(files).toEqual(['frame_000001.png', 'frame_000002.png', 'frame_000003.png', 'frame_000004.png', 'frame_000005.png']);
    // The size reported is the frames' own bytes.
    let bytes = 0;
    for (const name of files) bytes += (await stat(path.join(output, name))).size;
    expect(result.size).toBe(bytes);
    const info = await probe(path.join(output, 'frame_000003.png'));
    expect(info.streams[0]).toMatchObject({ codec_name: 'png', pix_fmt: 'rgba', width: 160, height: 90 });
    expect(await alphaAt(path.join(output, 'frame_000003.png'), 80, 80)).toBe(0);
    expect(await alphaAt(path.join(output, 'frame_000003.png'), 10, 30)).toBe(255);
  });
});
