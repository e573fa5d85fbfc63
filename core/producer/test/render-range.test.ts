import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { createBrowserPool, type BrowserPool } from '@seekframe/engine';
import { renderComposition, type OutputFormat } from '../src/index.js';
import { frameIndexProject, readFrameIndex } from './helpers/fixtures.js';
import { decodeAudio, decodeFrames, ffmpeg, probe } from './helpers/media-tools.js';
import { tempProject } from './helpers/temp-project.js';

/**
 * `frames` (`--frames 7-19`): the output is that slice of the composition, frame k = composition
 * frame 7 + k, in every format, and its sound is the same samples as the same times of the whole
 * render. The self-indexing fixture paints each frame's composition index, so a decoded frame
 * says which one it is.
 */
const FPS = 10;
const FRAMES = 30;
const SPAN = { start: 7, end: 19 };
const SPAN_FRAMES = SPAN.end - SPAN.start + 1;
const RATE = 48_000;
/** The tone starts between frames and inside the span; at 3 kHz a shift of one sample changes every sample (see alignment()). */
const TONE_START = 1.23;

let project: { dir: string; cleanup(): Promise<void> };
let pool: BrowserPool;
let full: { mp4: string; png: string };

const render = (format: OutputFormat, name: string, frames?: typeof SPAN) =>
  renderComposition(
    {
      projectDir: project.dir,
      output: path.join(project.dir, 'out', name),
      format,
      workers: 1,
      quality: 'high',
      ...(frames ? { frames } : {}),
    },
    undefined,
    { browsers: pool },
  );

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
    `sine=frequency=3000:sample_rate=${RATE}:duration=2`,
    '-c:a',
    'pcm_s16le',
    path.join(project.dir, 'tone.wav'),
  ]);
  pool = createBrowserPool();
  full = {
    mp4: (await render('mp4', 'full.mp4')).output,
    png: (await render('png-sequence', 'full-png')).output,
  };
}, 180_000);
afterAll(async () => {
  await pool?.close();
  await project?.cleanup();
});

const expected = Array.from({ length: SPAN_FRAMES }, (_, k) => SPAN.start + k);

describe('a range render (frames) is the slice of the whole render', () => {
  it('mp4: frame k is composition frame start + k; the sound is the same samples, cut to the sample', async () => {
    const result = await render('mp4', 'span.mp4', SPAN);
    expect(result).toMatchObject({ frames: SPAN_FRAMES, videoDuration: SPAN_FRAMES / FPS, hasAudio: true });
    expect((await decodeFrames(full.mp4, 160, 90)).map((f) => readFrameIndex(f))).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
    expect((await decodeFrames(result.output, 160, 90)).map((f) => readFrameIndex(f))).toEqual(expected);

    // Decoded (ffmpeg applies the mp4 edit list, so AAC's priming samples are dropped): the span's
    // samples against the whole render's from the span's start time.
    const whole = await decodeAudio(full.mp4, RATE);
    const part = await decodeAudio(result.output, RATE);
    expect(Math.abs(part.length / RATE - SPAN_FRAMES / FPS)).toBeLessThan(1024 / RATE);
    const offset = Math.round((SPAN.start / FPS) * RATE);
    const match = alignment(whole, part, offset);
    expect(match.bestLag).toBe(0);
    // Two AAC encodes of the same samples differ a little (other packet boundaries); a one-sample
    // shift of a 3 kHz tone leaves ~8 dB (measured: 56 dB at lag 0, 8 dB at ±1).
    expect(match.snrAt0).toBeGreaterThan(30);
    const onset = part.findIndex((s) => Math.abs(s) > 0.01) / RATE;
    expect(onset).toBeCloseTo(TONE_START - SPAN.start / FPS, 2);
  }, 120_000);

  it('png-sequence: the same decoded RGBA as the whole render, frame for frame', async () => {
    const result = await render('png-sequence', 'span-png', SPAN);
    const names = (await readdir(result.output)).filter((n) => n.endsWith('.png')).sort();
    expect(names).toEqual(expected.map((_, k) => `frame_${String(k + 1).padStart(6, '0')}.png`));
    for (const [k, name] of names.entries()) {
      const own = await rgba(path.join(result.output, name));
      const same = await rgba(path.join(full.png, `frame_${String(SPAN.start + k + 1).padStart(6, '0')}.png`));
      expect(own.equals(same), `${name} = frame ${SPAN.start + k} of the whole render`).toBe(true);
      // The PNG encoder is deterministic too: the very same files.
      const other = path.join(full.png, `frame_${String(SPAN.start + k + 1).padStart(6, '0')}.png`);
      expect((await readFile(path.join(result.output, name))).equals(await readFile(other)), name).toBe(true);
    }
    // The soundtrack beside it is the span's too.
    const audio = await decodeAudio(path.join(result.output, 'audio.aac'), RATE);
    expect(Math.abs(audio.length / RATE - SPAN_FRAMES / FPS)).toBeLessThan(2048 / RATE);
  }, 120_000);

  it.each([
    ['mov', 'span.mov'],
    ['webm', 'span.webm'],
    ['gif', 'span.gif'],
    ['hls', 'span-hls'],
  ] as const)(
    '%s: the span in order, none lost or doubled',
    async (format, name) => {
      const result = await render(format, name, SPAN);
      const file = format === 'hls' ? path.join(result.output, 'index.m3u8') : result.output;
      expect((await decodeFrames(file, 160, 90)).map((f) => readFrameIndex(f))).toEqual(expected);
      const audio = (await probe(file)).streams.some((s) => s.codec_type === 'audio');
      expect(audio).toBe(format !== 'gif');
    },
    120_000,
  );

  it('refuses a span past the last frame, naming frames and the valid numbers, and writes nothing', async () => {
    const error = await render('mp4', 'outside.mp4', { start: 25, end: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SeekframeError);
    expect(error).toMatchObject({ code: 'invalid-options', details: { field: 'frames', totalFrames: FRAMES } });
    expect((error as Error).message).toContain('frames (--frames) 25-30 is outside the composition');
    expect((error as Error).message).toContain('0-29');
    expect(await readdir(path.join(project.dir, 'out'))).not.toContain('outside.mp4');
  });
});

/** Every pixel of a PNG as RGBA bytes, decoded by ffmpeg. */
async function rgba(file: string): Promise<Buffer> {
  const { stdout } = await promisify(execFile)('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 16 << 20,
  });
  expect(stdout.length).toBe(160 * 90 * 4);
  return stdout;
}

/**
 * How `part` lines up with `whole` from sample `offset`: the signal-to-difference ratio (dB) at
 * lags -3..3 samples, over the part's samples. The best lag is where the part really sits.
 */
function alignment(whole: Float32Array, part: Float32Array, offset: number): { bestLag: number; snrAt0: number } {
  const snr = (lag: number): number => {
    let signal = 0;
    let noise = 0;
    // Skip the first and last AAC frame: their edges differ most between two encodes.
    for (let i = 1024; i < part.length - 1024; i++) {
      const reference = whole[offset + lag + i] ?? 0;
      signal += reference * reference;
      noise += (reference - part[i]!) ** 2;
    }
    return 10 * Math.log10(signal / Math.max(noise, 1e-12));
  };
  let bestLag = 0;
  for (let lag = -3; lag <= 3; lag++) if (snr(lag) > snr(bestLag)) bestLag = lag;
  return { bestLag, snrAt0: snr(0) };
}
