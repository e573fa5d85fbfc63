import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { createFrameEncoder, type FrameEncoder } from '../src/encode/create-frame-encoder.js';
import { probeMedia } from '../src/media/probe-media.js';
import { countFrames, ff, jpegFrames, pngFrames, sineAudio, tempDir } from './media-fixtures.js';
import { runProcess } from '../src/system/run-process.js';

const W = 64;
const H = 36;
let dir: string;
let cleanup: () => Promise<void>;
let audio: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  audio = await sineAudio(path.join(dir, 'tone.m4a'), 0.8);
});
afterAll(async () => cleanup());

async function writeAll(encoder: FrameEncoder, frames: Buffer[]): Promise<void> {
  for (const frame of frames) await encoder.write(frame);
}

/** First frame as RGB24, read with the BT.709 limited-range matrix the mp4 is tagged with. */
async function decodeBt709(file: string): Promise<Buffer> {
  const raw = path.join(dir, `${path.basename(file)}.rgb`);
  await ff(['-i', file, '-frames:v', '1', '-vf', 'scale=in_color_matrix=bt709:in_range=tv,format=rgb24', '-f', 'rawvideo', raw]);
  return readFile(raw);
}

async function partials(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.includes('.partial'));
}

describe('createFrameEncoder formats', () => {
  it('mp4: H.264 yuv420p + AAC, faststart, exact frames and duration', async () => {
    const output = path.join(dir, 'out.mp4');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
      audio,
    });
    await writeAll(encoder, pngFrames(8, W, H));
    const result = await encoder.finish();
    expect(result).toMatchObject({ format: 'mp4', output, frames: 8 });
    expect(result.size).toBe((await stat(output)).size);
    const info = await probeMedia(output);
    const video = info.streams.find((s) => s.type === 'video')!;
    expect(video).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: W, height: H, fps: 10 });
    expect(info.streams.find((s) => s.type === 'audio')?.codec).toBe('aac');
    expect(await countFrames(output)).toBe(8);
    expect(video.duration).toBeCloseTo(0.8, 2);
    const bytes = await readFile(output);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  });

  it('mp4 keeps the page colour from JPEG, PNG and raw BGRA and I420 frames (BT.709, limited range, tagged)', async () => {
    // #7c5cff, as a lossless PNG and as the YCbCr JPEG that Chromium would capture.
    const png = new PNG({ width: W, height: H });
    for (let o = 0; o < png.data.length; o += 4) png.data.set([0x7c, 0x5c, 0xff, 255], o);
    const pngFrame = PNG.sync.write(png);
    await writeFile(path.join(dir, 'solid.png'), pngFrame);
    await ff(['-i', path.join(dir, 'solid.png'), '-pix_fmt', 'yuvj420p', '-q:v', '1', path.join(dir, 'solid.jpg')]);
    const jpegFrame = await readFile(path.join(dir, 'solid.jpg'));
    // Canvas capture's raw frames: BGRA bytes, and I420 as bgra-to-i420.wat converts #7c5cff (Y 111, U 196, V 135).
    const bgraFrame = Buffer.alloc(W * H * 4);
    for (let o = 0; o < bgraFrame.length; o += 4) bgraFrame.set([0xff, 0x5c, 0x7c, 255], o);
    const i420Frame = Buffer.concat([Buffer.alloc(W * H, 111), Buffer.alloc((W * H) / 4, 196), Buffer.alloc((W * H) / 4, 135)]);
    for (const [inputFormat, frame] of [
      ['jpeg', jpegFrame],
      ['png', pngFrame],
      ['bgra', bgraFrame],
      ['i420', i420Frame],
    ] as const) {
      const output = path.join(dir, `solid-${inputFormat}.mp4`);
      const encoder = createFrameEncoder({
        format: 'mp4',
        output,
        width: W,
        height: H,
        fps: { num: 10, den: 1 },
        inputFormat,
        quality: 'high',
      });
      await writeAll(encoder, [frame, frame]);
      await encoder.finish();
      const video = (await probeMedia(output)).streams.find((s) => s.type === 'video')!;
      expect(video.pixFmt).toBe('yuv420p');
      const tags = await runProcess('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=color_space,color_range,color_primaries,color_transfer',
        '-of',
        'csv=p=0',
        output,
      ]);
      expect(tags.stdout.trim()).toBe('tv,bt709,bt709,bt709');
      const rgb = await decodeBt709(output);
      const centre = ((H / 2) * W + W / 2) * 3;
      const [r, g, b] = [rgb[centre]!, rgb[centre + 1]!, rgb[centre + 2]!];
      expect(Math.abs(r - 0x7c), `${inputFormat} red ${r}`).toBeLessThanOrEqual(3);
      expect(Math.abs(g - 0x5c), `${inputFormat} green ${g}`).toBeLessThanOrEqual(3);
      expect(Math.abs(b - 0xff), `${inputFormat} blue ${b}`).toBeLessThanOrEqual(3);
    }
  });

  it('mp4 from JPEG frames at an exact rational rate (30000/1001)', async () => {
    const output = path.join(dir, 'ntsc.mp4');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output,
      width: W,
      height: H,
      fps: { num: 30000, den: 1001 },
      inputFormat: 'jpeg',
      quality: 'standard',
      crf: 30,
    });
    await writeAll(encoder, await jpegFrames(6, W, H, dir));
    await encoder.finish();
    const info = await probeMedia(output);
    expect(info.fps).toBeCloseTo(30000 / 1001, 5);
    expect(await countFrames(output)).toBe(6);
  });

  it('mov: ProRes 4444 with alpha', async () => {
    const output = path.join(dir, 'out.mov');
    const encoder = createFrameEncoder({
      format: 'mov',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'standard',
      audio,
    });
    await writeAll(encoder, pngFrames(6, W, H, true));
    await encoder.finish();
    const info = await probeMedia(output);
    const video = info.streams.find((s) => s.type === 'video')!;
    expect(video.codec).toBe('prores');
    expect(video.pixFmt).toMatch(/^yuva444p1[02]le$/);
    expect(info.hasAlpha).toBe(true);
    expect(info.hasAudio).toBe(true);
    expect(await countFrames(output)).toBe(6);
  });

  it('webm: VP9 with the alpha_mode=1 tag + Opus', async () => {
    const output = path.join(dir, 'out.webm');
    const encoder = createFrameEncoder({
      format: 'webm',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
      audio,
    });
    await writeAll(encoder, pngFrames(8, W, H, true));
    await encoder.finish();
    const info = await probeMedia(output);
    const video = info.streams.find((s) => s.type === 'video')!;
    expect(video.codec).toBe('vp9');
    expect(Object.entries(video.tags).map(([k, v]) => [k.toLowerCase(), v])).toContainEqual(['alpha_mode', '1']);
    expect(info.hasAlpha).toBe(true);
    expect(info.streams.find((s) => s.type === 'audio')?.codec).toBe('opus');
    expect(await countFrames(output)).toBe(8);
    expect(info.duration).toBeGreaterThan(0.75);
  });

  it('gif: palette, at most 30 fps, loop count written', async () => {
    const output = path.join(dir, 'out.gif');
    const encoder = createFrameEncoder({
      format: 'gif',
      output,
      width: W,
      height: H,
      fps: { num: 60, den: 1 },
      inputFormat: 'png',
      quality: 'standard',
      gifLoop: 3,
    });
    await writeAll(encoder, pngFrames(12, W, H));
    const result = await encoder.finish();
    expect(result.frames).toBe(12);
    const info = await probeMedia(output);
    expect(info.streams[0]?.codec).toBe('gif');
    // 12 frames at 60 fps = 0.2 s; at 30 fps that is 6 frames.
    expect(await countFrames(output)).toBe(6);
    const bytes = await readFile(output);
    const ext = bytes.indexOf('NETSCAPE2.0');
    expect(ext).toBeGreaterThan(0);
    expect(bytes.readUInt16LE(ext + 13)).toBe(3);
  });

  it('gif loops forever by default', async () => {
    const output = path.join(dir, 'forever.gif');
    const encoder = createFrameEncoder({
      format: 'gif',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await writeAll(encoder, pngFrames(3, W, H));
    await encoder.finish();
    expect((await probeMedia(output)).streams[0]).toMatchObject({ codec: 'gif', width: W, height: H });
    expect(await countFrames(output)).toBe(3);
    const bytes = await readFile(output);
    expect(bytes.readUInt16LE(bytes.indexOf('NETSCAPE2.0') + 13)).toBe(0);
  });

  it('png-sequence: RGBA frame_NNNNNN.png files plus audio.aac, in a folder created on finish', async () => {
    const output = path.join(dir, 'seq', 'frames');
    const encoder = createFrameEncoder({
      format: 'png-sequence',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'standard',
      audio,
    });
    await writeAll(encoder, pngFrames(5, W, H, true));
    await expect(stat(output)).rejects.toThrow();
    await encoder.finish();
    const names = (await readdir(output)).sort();
    expect(names).toEqual([
      'audio.aac',
      'frame_000001.png',
      'frame_000002.png',
      'frame_000003.png',
      'frame_000004.png',
      'frame_000005.png',
    ]);
    const first = PNG.sync.read(await readFile(path.join(output, 'frame_000001.png')));
    expect([first.width, first.height]).toEqual([W, H]);
    expect(first.data[(5 * W + W - 2) * 4 + 3]).toBe(0);
    expect(first.data[(5 * W + 2) * 4 + 3]).toBe(255);
    expect((await probeMedia(path.join(output, 'audio.aac'))).streams[0]?.codec).toBe('aac');
    expect(await partials(path.dirname(output))).toEqual([]);
  });
});

describe('png-sequence into an existing folder', () => {
  it("replaces earlier frames and keeps the user's other files", async () => {
    const output = path.join(dir, 'existing');
    const run = async (count: number): Promise<void> => {
      const encoder = createFrameEncoder({
        format: 'png-sequence',
        output,
        width: W,
        height: H,
        fps: { num: 10, den: 1 },
        inputFormat: 'png',
        quality: 'draft',
      });
      await writeAll(encoder, pngFrames(count, W, H));
      await encoder.finish();
    };
    await run(4);
    await writeFile(path.join(output, 'notes.txt'), 'mine');
    await run(2);
    expect((await readdir(output)).sort()).toEqual(['frame_000001.png', 'frame_000002.png', 'notes.txt']);
    expect(await readFile(path.join(output, 'notes.txt'), 'utf8')).toBe('mine');
    const frame = PNG.sync.read(await readFile(path.join(output, 'frame_000002.png')));
    expect([frame.width, frame.height]).toEqual([W, H]);
    expect(await partials(dir)).toEqual([]);
  });
});

describe('createFrameEncoder options', () => {
  const base = {
    output: '/tmp/never.mp4',
    width: W,
    height: H,
    fps: { num: 10, den: 1 },
    inputFormat: 'png',
    quality: 'standard',
  } as const;

  it('rejects crf together with video bitrate', () => {
    expect(() => createFrameEncoder({ ...base, format: 'mp4', crf: 20, videoBitrate: '2M' })).toThrow(
      expect.objectContaining({ code: 'invalid-options', message: expect.stringContaining('exclude each other') }),
    );
  });
  it('rejects odd sizes for mp4, naming the nearest even size', () => {
    expect(() => createFrameEncoder({ ...base, format: 'mp4', width: 65 })).toThrow(
      expect.objectContaining({ code: 'invalid-options', message: expect.stringContaining('66x36') }),
    );
  });
  it('names a bad field', () => {
    let caught: unknown;
    try {
      createFrameEncoder({ ...base, format: 'gif', gifLoop: 70_000 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SeekframeError);
    expect((caught as SeekframeError).message).toContain('"gifLoop"');
  });
});

describe('createFrameEncoder failure and atomicity', () => {
  it('writes to a temp name and renames only on finish', async () => {
    const folder = path.join(dir, 'atomic');
    const output = path.join(folder, 'video.mp4');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await writeAll(encoder, pngFrames(4, W, H));
    // x264 may still hold every frame in its lookahead, so the temp file may not exist yet;
    // the final name must not exist in any case.
    expect(await readdir(folder)).not.toContain('video.mp4');
    expect((await partials(folder)).length).toBeLessThanOrEqual(1);
    await encoder.finish();
    expect(await readdir(folder)).toEqual(['video.mp4']);
    expect(await countFrames(output)).toBe(4);
  });

  it('keeps a png-sequence in a hidden temp folder until finish', async () => {
    const folder = path.join(dir, 'atomic-seq');
    const encoder = createFrameEncoder({
      format: 'png-sequence',
      output: path.join(folder, 'out'),
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await writeAll(encoder, pngFrames(2, W, H));
    expect(await partials(folder)).toHaveLength(1);
    expect(await readdir(folder)).not.toContain('out');
    await encoder.finish();
    expect(await readdir(folder)).toEqual(['out']);
    expect((await readdir(path.join(folder, 'out'))).sort()).toEqual(['frame_000001.png', 'frame_000002.png']);
    const frame = PNG.sync.read(await readFile(path.join(folder, 'out', 'frame_000002.png')));
    expect([frame.width, frame.height]).toEqual([W, H]);
  });

  it('rejects with ffmpeg-exited and leaves nothing when ffmpeg is killed mid-stream', async () => {
    const folder = path.join(dir, 'killed');
    const output = path.join(folder, 'video.webm');
    const encoder = createFrameEncoder({
      format: 'webm',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    const frames = pngFrames(4, W, H);
    await writeAll(encoder, frames);
    expect(encoder.pid).toBeGreaterThan(0);
    process.kill(encoder.pid!, 'SIGKILL');
    const error = await (async () => {
      for (let i = 0; i < 1000; i++) await encoder.write(frames[0]!);
      return encoder.finish();
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ffmpeg-exited', message: expect.stringContaining('SIGKILL') });
    await expect(encoder.finish()).rejects.toBeInstanceOf(SeekframeError);
    expect(await readdir(folder)).toEqual([]);
  });

  it('reports the last lines of ffmpeg stderr when it rejects the input', async () => {
    const folder = path.join(dir, 'garbage');
    const output = path.join(folder, 'video.mp4');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    const error = await (async () => {
      await encoder.write(Buffer.from('this is not a png at all'));
      return encoder.finish();
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ffmpeg-exited', message: expect.stringContaining('Last ffmpeg output') });
    expect(await readdir(folder)).toEqual([]);
  });

  it('finish() without frames says so and leaves nothing', async () => {
    const folder = path.join(dir, 'empty');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output: path.join(folder, 'v.mp4'),
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await expect(encoder.finish()).rejects.toMatchObject({ code: 'no-frames' });
    expect(await readdir(folder)).toEqual([]);
  });

  it('drain() lets ffmpeg finish without publishing; finish() then publishes, abort() leaves nothing', async () => {
    const folder = path.join(dir, 'drained');
    const output = path.join(folder, 'v.mp4');
    const encoder = createFrameEncoder({
      format: 'mp4',
      output,
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'high',
    });
    await writeAll(encoder, pngFrames(5, W, H));
    const pid = encoder.pid!;
    await Promise.all([encoder.drain(), encoder.drain()]);
    // ffmpeg has exited (kill(pid, 0) throws ESRCH), and only the temp file exists.
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await readdir(folder)).toEqual([expect.stringContaining('.partial')]);
    const result = await encoder.finish();
    expect(await readdir(folder)).toEqual(['v.mp4']);
    expect(result.size).toBe((await stat(output)).size);
    expect(await countFrames(output)).toBe(5);
    await expect(encoder.finish()).rejects.toMatchObject({ code: 'encoder-closed' });

    const dropped = createFrameEncoder({
      format: 'mp4',
      output: path.join(folder, 'dropped.mp4'),
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await writeAll(dropped, pngFrames(2, W, H));
    await dropped.drain();
    await dropped.abort();
    expect(await readdir(folder)).toEqual(['v.mp4']);
    await expect(dropped.finish()).rejects.toMatchObject({ code: 'encoder-closed' });
  });

  it('abort() kills ffmpeg and removes the temp output', async () => {
    const folder = path.join(dir, 'aborted');
    const encoder = createFrameEncoder({
      format: 'png-sequence',
      output: path.join(folder, 'frames'),
      width: W,
      height: H,
      fps: { num: 10, den: 1 },
      inputFormat: 'png',
      quality: 'draft',
    });
    await writeAll(encoder, pngFrames(3, W, H));
    await encoder.abort();
    expect(await readdir(folder)).toEqual([]);
    await expect(encoder.write(pngFrames(1, W, H)[0]!)).rejects.toMatchObject({ code: 'encoder-closed' });
  });
});
