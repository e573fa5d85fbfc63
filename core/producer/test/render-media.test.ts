import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition } from '../src/index.js';
import { decodeAudio, decodeFrames, ffmpeg, pixel, probe, rms } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  project = await tempProject({
    'audio/index.html': composition({ duration: 1, fps: 10, body: '<audio src="tone.wav" data-start="0.5" data-duration="0.5"></audio>' }),
    'video/index.html': composition({
      duration: 1.2,
      fps: 10,
      body: '<video src="clip.mp4" muted data-start="0.2" data-duration="1" style="position:absolute;left:0;top:0;width:160px;height:90px"></video>',
    }),
  });
  // A 1 s 440 Hz tone, and a clip that is red for 0.5 s, then blue for 0.5 s.
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=1',
    '-c:a',
    'pcm_s16le',
    path.join(project.dir, 'audio', 'tone.wav'),
  ]);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=160x90:r=25:d=0.5',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=160x90:r=25:d=0.5',
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    path.join(project.dir, 'video', 'clip.mp4'),
  ]);
});
afterAll(async () => project?.cleanup());

describe('media', () => {
  it('mixes an audio clip at its start: silence before 0.5 s, the tone after', async () => {
    const output = path.join(project.dir, 'audio.mp4');
    const result = await renderComposition({ projectDir: path.join(project.dir, 'audio'), output, quality: 'draft', workers: 1 });
    expect(result.hasAudio).toBe(true);
    const info = await probe(output);
    expect(info.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    const samples = await decodeAudio(output, 8000);
    expect(rms(samples, 8000, 0.05, 0.42)).toBeLessThan(0.01);
    expect(rms(samples, 8000, 0.6, 0.95)).toBeGreaterThan(0.05); // ffmpeg's sine has amplitude 1/8 (RMS 0.088)
  });

  it('carries the mix as Opus in webm and as audio.aac beside a png-sequence', async () => {
    const webm = path.join(project.dir, 'audio.webm');
    await renderComposition({ projectDir: path.join(project.dir, 'audio'), output: webm, quality: 'draft', workers: 1 });
    expect((await probe(webm)).streams.map((s) => s.codec_name).sort()).toEqual(['opus', 'vp9']);
    const samples = await decodeAudio(webm, 8000);
    expect(rms(samples, 8000, 0.05, 0.42)).toBeLessThan(0.01);
    expect(rms(samples, 8000, 0.6, 0.95)).toBeGreaterThan(0.05);

    const folder = path.join(project.dir, 'audio-seq');
    await renderComposition({ projectDir: path.join(project.dir, 'audio'), output: folder, format: 'png-sequence', workers: 1 });
    const aac = await probe(path.join(folder, 'audio.aac'));
    expect(aac.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'aac' });
    expect(aac.duration).toBeCloseTo(1, 1);
    // The same mix as the videos: silence, then the tone from 0.5 s; and the ten frames beside it.
    const mix = await decodeAudio(path.join(folder, 'audio.aac'), 8000);
    expect(rms(mix, 8000, 0.05, 0.42)).toBeLessThan(0.01);
    expect(rms(mix, 8000, 0.6, 0.95)).toBeGreaterThan(0.05);
    expect((await readdir(folder)).filter((name) => /^frame_\d{6}\.png$/.test(name))).toHaveLength(10);
  });

  it('shows the video frame of each render time (clip starting at 0.2 s)', async () => {
    const output = path.join(project.dir, 'video.mp4');
    const result = await renderComposition({ projectDir: path.join(project.dir, 'video'), output, workers: 1 });
    expect(result.frames).toBe(12);
    const colours = (await decodeFrames(output, 160, 90)).map((frame) => {
      const [r, g, b] = pixel(frame, 160, 80, 45);
      if (r > 150 && g < 80 && b < 80) return 'red';
      if (b > 150 && r < 80 && g < 80) return 'blue';
      if (r < 40 && g < 40 && b < 40) return 'black';
      return `rgb(${r},${g},${b})`;
    });
    // t < 0.2: before the clip; video time 0-0.4: red; video time 0.5-0.9: blue.
    expect(colours).toEqual(['black', 'black', 'red', 'red', 'red', 'red', 'red', 'blue', 'blue', 'blue', 'blue', 'blue']);
  });
});
