import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBatch, renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
const FPS = 12;
const DURATION = 2.5;
const FRAMES = Math.round(DURATION * FPS);

const DECLARATIONS = [{ id: 'transcript', type: 'captions', label: 'Captions', default: [] }];

/**
 * A caption element over the whole frame: words white, the active word red. Two segments:
 * "AAA BBB." then "CCC". At 12 fps no word time is on a frame boundary.
 */
const TRANSCRIPT = [
  { text: 'AAA', start: 0.2, end: 0.6 },
  { text: 'BBB.', start: 0.6, end: 1.05 },
  { text: 'CCC', start: 1.5, end: 1.9 },
];

function captionProject(extraStyle = ''): Record<string, string> {
  return {
    'index.html': composition({
      duration: DURATION,
      fps: FPS,
      variables: DECLARATIONS,
      head: `<style>#cap{position:absolute;left:0;top:0;width:160px;font:16px 'Noto Sans';word-spacing:24px;color:#fff}#cap .seekframe-word-active{color:#f00}${extraStyle}</style>`,
      body: '<div id="cap" data-captions="transcript"></div>',
    }),
  };
}

/** Frames n whose time n/fps is in [start, end): the first frame at or after each. */
function framesOf(start: number, end: number): number[] {
  const first = Math.ceil(start * FPS - 1e-9);
  const last = Math.ceil(end * FPS - 1e-9);
  return Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
}

type Ink = { red: number; white: number };
/** Red and white pixels left and right of x = 46 (AAA, ~32 px wide, sits left of it; BBB starts past 56 px with the word spacing). */
function inkOf(frame: Buffer): { left: Ink; right: Ink } {
  const result = { left: { red: 0, white: 0 }, right: { red: 0, white: 0 } };
  for (let y = 0; y < 40; y++) {
    for (let x = 0; x < 160; x++) {
      const i = (y * 160 + x) * 3;
      const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
      const side = x < 46 ? result.left : result.right;
      if (r > 150 && g < 90 && b < 90) side.red++;
      else if (r > 150 && g > 150 && b > 150) side.white++;
    }
  }
  return result;
}

/** What each frame shows: '' nothing, else which side is red ('L' or 'R') or 'W' (white only). */
function states(frames: Buffer[]): string[] {
  return frames.map((frame) => {
    const { left, right } = inkOf(frame);
    if (left.red + right.red + left.white + right.white < 10) return '';
    if (left.red > 10 && right.red < 3) return 'L';
    if (right.red > 10 && left.red < 3) return 'R';
    return left.red + right.red < 3 ? 'W' : '?';
  });
}

/** Expected states of TRANSCRIPT-like words (AAA left, BBB right, CCC left). */
function expectedStates(words: { start: number; end: number; side: 'L' | 'R' }[], segments: [number, number][]): string[] {
  const out: string[] = Array.from({ length: FRAMES }, () => '');
  for (const [start, end] of segments) for (const n of framesOf(start, end)) if (n < FRAMES) out[n] = 'W';
  for (const word of words) for (const n of framesOf(word.start, word.end)) if (n < FRAMES) out[n] = word.side;
  return out;
}

/** The cues of an .srt/.vtt file as ffprobe's subtitle demuxer reads them, in milliseconds. */
async function readCues(file: string): Promise<{ start: number; end: number }[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_packets', '-of', 'json', file]);
  const packets = (JSON.parse(stdout) as { packets: { pts_time: string; duration_time: string }[] }).packets;
  return packets.map((p) => ({
    start: Math.round(Number(p.pts_time) * 1000),
    end: Math.round((Number(p.pts_time) + Number(p.duration_time)) * 1000),
  }));
}

let project: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  project = await tempProject(captionProject());
});
afterAll(async () => project?.cleanup());

describe('the caption element in a render', () => {
  let frames: Buffer[];

  beforeAll(async () => {
    const output = path.join(project.dir, 'frames');
    await renderComposition({
      projectDir: project.dir,
      output,
      format: 'png-sequence',
      variables: { transcript: TRANSCRIPT },
      captions: path.join(project.dir, 'out.srt'),
      workers: 1,
    });
    frames = await decodeFrames(path.join(output, 'frame_%06d.png'), 160, 90);
  });

  it('highlights each word exactly in the frames of its time, and shows nothing between segments', () => {
    expect(frames).toHaveLength(FRAMES);
    const expected = expectedStates(
      [
        { start: 0.2, end: 0.6, side: 'L' },
        { start: 0.6, end: 1.05, side: 'R' },
        { start: 1.5, end: 1.9, side: 'L' },
      ],
      [
        [0.2, 1.05],
        [1.5, 1.9],
      ],
    );
    expect(states(frames)).toEqual(expected);
    // Spot checks: frame 3 (0.25 s) is AAA's, frame 8 (0.67 s) BBB's, frame 13 (1.08 s) empty.
    expect([expected[3], expected[8], expected[13]]).toEqual(['L', 'R', '']);
  });

  it('the .srt has one cue per segment, on frame boundaries, covering exactly the frames that show captions', async () => {
    const srt = await readFile(path.join(project.dir, 'out.srt'), 'utf8');
    expect(srt).toContain('AAA BBB.');
    const cues = await readCues(path.join(project.dir, 'out.srt'));
    expect(cues).toHaveLength(2);
    for (const cue of cues) {
      for (const ms of [cue.start, cue.end]) {
        const frame = Math.round((ms * FPS) / 1000);
        expect(ms).toBe(Math.round((frame * 1000) / FPS));
      }
    }
    const shown = states(frames).flatMap((state, n) => (state === '' ? [] : [n]));
    // Back to frame numbers (each time is a boundary, written to the millisecond).
    const frameOf = (ms: number): number => Math.round((ms * FPS) / 1000);
    const cueFrames = cues.flatMap((cue) =>
      Array.from({ length: frameOf(cue.end) - frameOf(cue.start) }, (_, i) => frameOf(cue.start) + i),
    );
    expect(cueFrames).toEqual(shown);
  });

  it('--captions out.vtt writes WebVTT from the same data: the same cues', async () => {
    const output = path.join(project.dir, 'again.mp4');
    const events: RenderEvent[] = [];
    const result = await renderComposition(
      {
        projectDir: project.dir,
        output,
        variables: { transcript: TRANSCRIPT },
        captions: path.join(project.dir, 'out.vtt'),
        quality: 'draft',
        workers: 1,
      },
      (e) => events.push(e),
    );
    expect(result.captions).toMatchObject({ file: path.join(project.dir, 'out.vtt'), cues: 2, variable: 'transcript' });
    // render --json: the last line names the file as well.
    const complete = events.at(-1);
    expect(complete?.type === 'complete' && complete.captions).toEqual(result.captions);
    const vtt = await readFile(path.join(project.dir, 'out.vtt'), 'utf8');
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(await readCues(path.join(project.dir, 'out.vtt'))).toEqual(await readCues(path.join(project.dir, 'out.srt')));
  });
});

describe('CJK captions in a render', () => {
  it('breaks a Japanese line between characters inside a narrow box, without spilling past it', async () => {
    const cjk = await tempProject(captionProject('#cap{width:64px;font-size:16px;line-height:20px}'));
    try {
      const output = path.join(cjk.dir, 'frames');
      // 10 characters at 16 px are ~160 px: four 64 px lines (16 px a character) when broken between characters.
      const transcript = [
        {
          segments: [
            {
              words: [
                { text: '今日は', start: 0, end: 1 },
                { text: 'いい天気', start: 1, end: 2 },
                { text: 'ですね', start: 2, end: 2.5 },
              ],
            },
          ],
        },
      ][0];
      await renderComposition({ projectDir: cjk.dir, output, format: 'png-sequence', variables: { transcript }, workers: 1 });
      const [frame] = await decodeFrames(path.join(output, 'frame_%06d.png'), 160, 90);
      const rows: boolean[] = [];
      let spill = 0;
      for (let y = 0; y < 90; y++) {
        let ink = false;
        for (let x = 0; x < 160; x++) {
          const i = (y * 160 + x) * 3;
          const lit = frame![i]! > 100 || frame![i + 1]! > 100;
          if (lit && x >= 66) spill++;
          if (lit) ink = true;
        }
        rows.push(ink);
      }
      // Text bands: runs of rows with ink.
      const bands = rows.reduce((count, ink, y) => (ink && !rows[y - 1] ? count + 1 : count), 0);
      expect(spill).toBe(0);
      expect(bands).toBe(2); // data-caption-lines defaults to 2: the first page shows two of the lines
    } finally {
      await cjk.cleanup();
    }
  });
});

describe('captions in a batch', () => {
  it('each row shows its own transcript and writes its own captions file', async () => {
    const early = [{ text: 'AAA', start: 0.1, end: 0.5 }];
    const late = [{ text: 'AAA', start: 1.2, end: 1.6 }];
    const result = await renderBatch({
      render: { projectDir: project.dir, format: 'png-sequence', captions: 'subs-{index}.srt', workers: 1 },
      batch: [{ transcript: early }, { transcript: late }],
      output: 'row-{index}',
      cwd: project.dir,
    });
    expect(result.counts).toMatchObject({ completed: 2, failed: 0 });
    for (const [index, words] of [early, late].entries()) {
      const frames = await decodeFrames(path.join(project.dir, `row-${index}`, 'frame_%06d.png'), 160, 90);
      expect(states(frames)).toEqual(
        expectedStates([{ start: words[0]!.start, end: words[0]!.end, side: 'L' }], [[words[0]!.start, words[0]!.end]]),
      );
      const cues = await readCues(path.join(project.dir, `subs-${index}.srt`));
      expect(cues).toEqual([
        {
          start: Math.round((Math.ceil(words[0]!.start * FPS) * 1000) / FPS),
          end: Math.round((Math.ceil(words[0]!.end * FPS) * 1000) / FPS),
        },
      ]);
    }
  });
});

describe('bad transcripts are refused before anything renders, naming the variable and the field', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'overlapping words',
      [
        { text: 'a', start: 0, end: 1 },
        { text: 'b', start: 0.5, end: 1.5 },
      ],
      /variable "transcript": \[1\]\.start \(0\.5\) overlaps the word before it/,
    ],
    [
      'a negative time',
      { segments: [{ words: [{ text: 'a', start: -1, end: 1 }] }] },
      /variable "transcript": segments\[0\]\.words\[0\]\.start must be 0 or more/,
    ],
    ['a missing field', [{ text: 'a', startMs: 0 }], /variable "transcript": \[0\]\.endMs is missing/],
  ];
  for (const [what, transcript, message] of cases) {
    it(what, async () => {
      const failure = await renderComposition({
        projectDir: project.dir,
        output: path.join(project.dir, 'never.mp4'),
        variables: { transcript },
        workers: 1,
      }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'invalid-variables', stage: 'variables' });
      expect((failure as Error).message).toMatch(message);
    });
  }

  it('a batch row with a bad transcript fails the batch up front, naming the row', async () => {
    const failure = await renderBatch({
      render: { projectDir: project.dir, workers: 1 },
      batch: [{ transcript: TRANSCRIPT }, { transcript: [{ text: 'a', start: 2, end: 1 }] }],
      output: 'never-{index}.mp4',
      cwd: project.dir,
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'invalid-batch' });
    expect((failure as Error).message).toMatch(/row 1: variable "transcript": \[0\]\.end \(1\) is before its start \(2\)/);
  });

  it('--captions without a captions variable, or with a wrong extension, is refused', async () => {
    const plain = await tempProject({ 'index.html': composition({ duration: 0.2, body: '<p>hi</p>' }) });
    try {
      const noVariable = await renderComposition({
        projectDir: plain.dir,
        output: path.join(plain.dir, 'x.mp4'),
        captions: path.join(plain.dir, 'x.srt'),
        workers: 1,
      }).catch((e: unknown) => e);
      expect((noVariable as Error).message).toMatch(/declares no variable of type "captions"/);
      const badExt = await renderComposition({
        projectDir: plain.dir,
        output: path.join(plain.dir, 'x.mp4'),
        captions: path.join(plain.dir, 'x.txt'),
        workers: 1,
      }).catch((e: unknown) => e);
      expect(badExt).toMatchObject({ code: 'invalid-options' });
      expect((badExt as Error).message).toMatch(/captions must name a \.srt or \.vtt file/);
    } finally {
      await plain.cleanup();
    }
  });
});
