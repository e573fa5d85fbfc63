import { describe, expect, it } from 'vitest';
import { captionCues, captionFileFormat, formatCaptionFile } from './caption-files.js';
import { parseCaptionTrack, type CaptionTrack } from './caption-track.js';

function track(value: unknown): CaptionTrack {
  const result = parseCaptionTrack(value);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.track;
}

describe('caption sidecar files', () => {
  const transcript = track([
    { text: 'Hello', start: 0.1, end: 0.45 },
    { text: 'world.', start: 0.45, end: 1.02 },
    { text: 'こんにちは', start: 1.5, end: 2.2 },
  ]);

  it('cue times are frame boundaries: the first frame at or after each start and end', () => {
    // 10 fps: 0.1 -> frame 1, 1.02 -> frame 11 (1.0 is before 1.02), 1.5 -> 15, 2.2 -> 22.
    expect(captionCues(transcript, { num: 10, den: 1 }, 100)).toEqual([
      { startFrame: 1, endFrame: 11, lines: ['Hello world.'] },
      { startFrame: 15, endFrame: 22, lines: ['こんにちは'] },
    ]);
  });

  it('cues end with the render, and a cue no frame shows is left out', () => {
    expect(captionCues(transcript, { num: 10, den: 1 }, 18)).toEqual([
      { startFrame: 1, endFrame: 11, lines: ['Hello world.'] },
      { startFrame: 15, endFrame: 18, lines: ['こんにちは'] },
    ]);
    const tiny = track([{ text: 'blink', start: 0.01, end: 0.02 }]);
    expect(captionCues(tiny, { num: 10, den: 1 }, 10)).toEqual([]);
  });

  it('writes SRT (numbered, comma milliseconds) and WebVTT (header, dot milliseconds, markup escaped)', () => {
    const fps = { num: 30000, den: 1001 };
    const cues = [{ startFrame: 1, endFrame: 30, lines: ['a < b', 'c & d'] }];
    expect(formatCaptionFile(cues, fps, 'srt')).toBe('1\n00:00:00,033 --> 00:00:01,001\na < b\nc & d\n');
    expect(formatCaptionFile(cues, fps, 'vtt')).toBe('WEBVTT\n\n00:00:00.033 --> 00:00:01.001\na &lt; b\nc &amp; d\n');
  });

  it('a transcript cannot add cues: line breaks inside a word become spaces, "-->" is broken up', () => {
    // A word carrying a blank line and a timing line would start a second cue in a naive writer.
    const hostile = track([
      { text: 'Hi\r\n\n2\n00:00:00,000 --> 00:09:00,000\nINJECTED', start: 0, end: 0.5 },
      { text: 'a\u2028b\u2029c\vd\fe\u0085f', start: 0.5, end: 1 },
    ]);
    const cues = captionCues(hostile, { num: 10, den: 1 }, 100);
    for (const format of ['srt', 'vtt'] as const) {
      const file = formatCaptionFile(cues, { num: 10, den: 1 }, format);
      // One cue: one timing line, no blank line inside it, no text line with "-->".
      expect(file.match(/-->/g), format).toHaveLength(1);
      const body = format === 'vtt' ? file.slice('WEBVTT\n\n'.length) : file;
      expect(body.trimEnd().split('\n').includes(''), format).toBe(false);
      expect(file).not.toMatch(/[\r\v\f\u0085\u2028\u2029]/);
    }
    expect(cues.flatMap((cue) => cue.lines).join(' ')).toContain('INJECTED');
  });

  it('long text is split into cues of at most two lines of 42 columns', () => {
    const long = track(Array.from({ length: 30 }, (_, i) => ({ text: `word${i}`, start: i * 0.2, end: i * 0.2 + 0.2 })));
    const cues = captionCues(long, { num: 25, den: 1 }, 1000);
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    // Back to back: each cue ends where the next starts.
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.startFrame).toBe(cues[i - 1]!.endFrame);
  });

  it('knows its formats by extension', () => {
    expect(captionFileFormat('out/subs.SRT')).toBe('srt');
    expect(captionFileFormat('a.vtt')).toBe('vtt');
    expect(captionFileFormat('a.txt')).toBeUndefined();
  });
});
