import { execFile } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { assembleSegments, mixPlanAudio, planRender, renderFrames, type RenderPlan } from '../src/index.js';
import { frameIndexProject, readFrameIndex } from './helpers/fixtures.js';
import { decodeAudio, decodeFrames, ffmpeg, probe } from './helpers/media-tools.js';
import { tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
const FPS = 10;
const FRAMES = 30;
/** The tone starts between frames and between AAC packets, so a seam cannot hide a shift. */
const TONE_START = 1.23;

let project: { dir: string; cleanup(): Promise<void> };
let plan: RenderPlan;
let audio: string | null;
let single: string;

beforeAll(async () => {
  project = await tempProject(
    frameIndexProject({
      duration: FRAMES / FPS,
      fps: FPS,
      extraBody: `<audio src="tone.wav" data-start="${TONE_START}" data-duration="1.5"></audio>`,
    }),
  );
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=2',
    '-c:a',
    'pcm_s16le',
    path.join(project.dir, 'tone.wav'),
  ]);
  plan = await planRender({ projectDir: project.dir, workers: 1, quality: 'draft' });
  audio = await mixPlanAudio(plan, path.join(project.dir, 'work', 'mix.m4a'), { projectDir: project.dir });
  single = path.join(project.dir, 'out', 'single.mp4');
  await renderFrames(
    plan,
    { start: 0, end: FRAMES },
    { kind: 'output', path: single, ...(audio ? { audio } : {}) },
    { projectDir: project.dir },
  );
}, 180_000);
afterAll(async () => project?.cleanup());

/** `count` contiguous ranges covering the plan, as even as possible (7 pieces of 30: 5,5,4,4,4,4,4). */
function split(total: number, count: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.floor(total / count) + (i < total % count ? 1 : 0);
    ranges.push({ start, end: start + size });
    start += size;
  }
  return ranges;
}

async function videoFrames(file: string): Promise<{ key: boolean; pict: string; pts: number }[]> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_frames', '-show_entries', 'frame=key_frame,pict_type,pts_time', '-of', 'json', file],
    { maxBuffer: 16 << 20 },
  );
  const frames = (JSON.parse(stdout) as { frames: { key_frame: number; pict_type: string; pts_time: string }[] }).frames;
  return frames.map((f) => ({ key: f.key_frame === 1, pict: f.pict_type, pts: Number(f.pts_time) }));
}

describe('split renders: renderFrames segments + assembleSegments', () => {
  it('plans plain JSON with a hash, the clock epoch and the audible clip', () => {
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(plan).toMatchObject({ version: 1, totalFrames: FRAMES, fps: { num: FPS, den: 1 }, format: 'mp4', entry: 'index.html' });
    expect(plan.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.epochMs % 1000).toBe(0);
    expect(plan.media.audio?.tracks).toEqual([expect.objectContaining({ src: '/tone.wav', start: TONE_START, duration: 1.5 })]);
    expect(audio).not.toBeNull();
  });

  it.each([1, 3, 7])(
    '%i pieces join into the single render: same frames, keyframes at the seams, sample-exact audio',
    async (count) => {
      const dir = path.join(project.dir, `pieces-${count}`);
      await mkdir(dir, { recursive: true });
      const ranges = split(FRAMES, count);
      const pieces: string[] = [];
      for (const [n, range] of ranges.entries()) {
        const piece = path.join(dir, `piece-${n}.mp4`);
        const result = await renderFrames(plan, range, { kind: 'segment', path: piece }, { projectDir: project.dir });
        expect(result).toMatchObject({ frames: range.end - range.start, output: piece });
        pieces.push(piece);
      }
      // Each piece is video only, starts at 0 with a keyframe, steps 1/fps, and has no B-frames.
      for (const [n, piece] of pieces.entries()) {
        const own = await videoFrames(piece);
        expect(own, piece).toHaveLength(ranges[n]!.end - ranges[n]!.start);
        expect(own[0]).toMatchObject({ key: true, pts: 0 });
        own.forEach((f, i) => expect(f.pts).toBeCloseTo(i / FPS, 6));
        expect(own.filter((f) => f.pict === 'B')).toEqual([]);
        expect((await probe(piece)).streams.map((s) => s.codec_type)).toEqual(['video']);
      }

      const output = path.join(project.dir, 'out', `joined-${count}.mp4`);
      const joined = await assembleSegments(plan, pieces, audio, output);
      expect(joined).toMatchObject({ output, frames: FRAMES });
      expect(await readdir(path.dirname(output))).toContain(`joined-${count}.mp4`);
      expect((await readdir(path.dirname(output))).filter((name) => name.includes('.partial'))).toEqual([]);

      // Frame-exact: the same index in every frame as the single render, in order, none lost or doubled.
      const expected = Array.from({ length: FRAMES }, (_, i) => i);
      expect((await decodeFrames(single, 160, 90)).map((f) => readFrameIndex(f))).toEqual(expected);
      expect((await decodeFrames(output, 160, 90)).map((f) => readFrameIndex(f))).toEqual(expected);

      const frames = await videoFrames(output);
      expect(frames).toHaveLength(FRAMES);
      for (const range of ranges) expect(frames[range.start]?.key, `keyframe at ${range.start}`).toBe(true);
      expect(frames.filter((f) => f.pict === 'B')).toEqual([]);
      frames.forEach((f, i) => expect(f.pts).toBeCloseTo(i / FPS, 6));

      // The same mix, muxed once: every decoded sample equal to the single render's, so no seam shifts it.
      const singleAudio = await decodeAudio(single, 48_000);
      const joinedAudio = await decodeAudio(output, 48_000);
      expect(joinedAudio.length).toBe(singleAudio.length);
      expect(Buffer.from(joinedAudio.buffer).equals(Buffer.from(singleAudio.buffer))).toBe(true);
      // And the tone really starts mid-render where the plan says.
      const onset = joinedAudio.findIndex((s) => Math.abs(s) > 0.01) / 48_000;
      expect(onset).toBeGreaterThan(TONE_START - 0.005);
      expect(onset).toBeLessThan(TONE_START + 0.005);
      expect(Math.abs(joinedAudio.length / 48_000 - FRAMES / FPS)).toBeLessThan(0.03);
    },
    300_000,
  );

  it.each(['mov', 'png-sequence'] as const)(
    '%s pieces join too, with the soundtrack',
    async (format) => {
      const formatPlan = await planRender({ projectDir: project.dir, format, workers: 1 });
      const formatAudio = await mixPlanAudio(formatPlan, path.join(project.dir, 'work', `mix-${format}.m4a`), { projectDir: project.dir });
      const ext = format === 'mov' ? '.mov' : '';
      const pieces: string[] = [];
      for (const [n, range] of split(FRAMES, 2).entries()) {
        const piece = path.join(project.dir, `${format}-pieces`, `piece-${n}${ext}`);
        await renderFrames(formatPlan, range, { kind: 'segment', path: piece }, { projectDir: project.dir });
        pieces.push(piece);
      }
      const output = path.join(project.dir, 'out', `joined-${format}${ext}`);
      expect(await assembleSegments(formatPlan, pieces, formatAudio, output)).toMatchObject({ frames: FRAMES });
      if (format === 'mov') {
        const streams = (await probe(output)).streams;
        expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
          ['video', 'prores'],
          ['audio', 'pcm_s16le'],
        ]);
        expect(streams[0]?.nb_read_frames).toBe(String(FRAMES));
        expect((await decodeFrames(output, 160, 90)).map((f) => readFrameIndex(f))).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
      } else {
        const names = (await readdir(output)).sort();
        expect(names).toHaveLength(FRAMES + 1);
        expect(names.filter((n) => n.endsWith('.png'))[0]).toBe('frame_000001.png');
        expect(names).toContain('audio.aac');
        expect(readFrameIndex((await decodeFrames(path.join(output, 'frame_000017.png'), 160, 90))[0]!)).toBe(16);
      }
      // The soundtrack is the one-piece render's, sample for sample (ADTS has no edit list, so both
      // keep the AAC priming; mov carries PCM, where the tone starts exactly on time).
      const whole = path.join(project.dir, 'out', `whole-${format}${ext}`);
      await renderFrames(
        formatPlan,
        { start: 0, end: FRAMES },
        { kind: 'output', path: whole, ...(formatAudio ? { audio: formatAudio } : {}) },
        { projectDir: project.dir },
      );
      const soundOf = (file: string): string => (format === 'mov' ? file : path.join(file, 'audio.aac'));
      const joinedAudio = await decodeAudio(soundOf(output), 48_000);
      expect(Buffer.from(joinedAudio.buffer).equals(Buffer.from((await decodeAudio(soundOf(whole), 48_000)).buffer))).toBe(true);
      if (format === 'mov') expect(Math.abs(joinedAudio.findIndex((v) => Math.abs(v) > 0.01) / 48_000 - TONE_START)).toBeLessThan(0.005);
    },
    180_000,
  );

  it('png-sequence pieces number their files from the range start', async () => {
    const pngPlan = await planRender({ projectDir: project.dir, format: 'png-sequence', workers: 1 });
    const piece = path.join(project.dir, 'png-piece');
    await renderFrames(pngPlan, { start: 12, end: 15 }, { kind: 'segment', path: piece }, { projectDir: project.dir });
    expect((await readdir(piece)).sort()).toEqual(['frame_000013.png', 'frame_000014.png', 'frame_000015.png']);
  }, 120_000);

  it('refuses to split a GIF, a range outside the plan, and an edited plan', async () => {
    const gifPlan = await planRender({ projectDir: project.dir, format: 'gif', workers: 1 });
    const gif = renderFrames(
      gifPlan,
      { start: 0, end: 10 },
      { kind: 'segment', path: path.join(project.dir, 'x.gif') },
      { projectDir: project.dir },
    );
    await expect(gif).rejects.toMatchObject({ code: 'format-not-distributable' });
    await expect(gif).rejects.toThrow(/gif cannot be rendered in pieces/);
    await expect(assembleSegments(gifPlan, [], null, path.join(project.dir, 'x.gif'))).rejects.toBeInstanceOf(SeekframeError);
    await expect(
      renderFrames(plan, { start: 25, end: 31 }, { kind: 'segment', path: path.join(project.dir, 'x.mp4') }, { projectDir: project.dir }),
    ).rejects.toMatchObject({ code: 'invalid-options' });
    const edited = { ...plan, epochMs: plan.epochMs + 1000 };
    await expect(
      renderFrames(edited, { start: 0, end: 5 }, { kind: 'segment', path: path.join(project.dir, 'x.mp4') }, { projectDir: project.dir }),
    ).rejects.toMatchObject({ code: 'plan-hash-mismatch' });
  }, 120_000);
});
