import { describe, expect, it } from 'vitest';
import { parseCaptionTrack, type CaptionTrack } from './caption-track.js';
import { validateOverrides } from './validate-overrides.js';
import { parseVariableDeclarations } from './parse-variable-declarations.js';

function track(value: unknown): CaptionTrack {
  const result = parseCaptionTrack(value);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.track;
}

function problems(value: unknown): { path: string; message: string }[] {
  const result = parseCaptionTrack(value);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

const words = (list: [string, number, number][]) => list.map(([text, start, end]) => ({ text, start, end }));

describe('parseCaptionTrack: the accepted shapes', () => {
  it("segments with words (seconds); a segment without start/end takes its words'", () => {
    const t = track({
      segments: [
        {
          words: words([
            ['Hello', 0, 0.5],
            ['world', 0.5, 1],
          ]),
        },
        { start: 1.5, end: 3, words: words([['again', 2, 2.5]]) },
      ],
    });
    expect(t.segments).toEqual([
      {
        start: 0,
        end: 1,
        words: [
          { text: 'Hello', start: 0, end: 0.5, space: false },
          { text: 'world', start: 0.5, end: 1, space: true },
        ],
      },
      { start: 1.5, end: 3, words: [{ text: 'again', start: 2, end: 2.5, space: false }] },
    ]);
  });

  it('Whisper verbose JSON: words say "word", extra fields are ignored', () => {
    const t = track({
      text: 'Hi there',
      segments: [
        {
          id: 0,
          start: 0,
          end: 1,
          text: ' Hi there',
          words: [
            { word: ' Hi', start: 0, end: 0.4, probability: 0.9 },
            { word: ' there', start: 0.4, end: 1 },
          ],
        },
      ],
    });
    expect(t.segments[0]!.words.map((w) => [w.text, w.space])).toEqual([
      ['Hi', false],
      ['there', true],
    ]);
  });

  it('a flat word list (HyperFrames) is grouped into segments at sentence ends and pauses', () => {
    const t = track([
      { id: 'w0', text: 'One.', start: 0, end: 0.3 },
      ...words([
        ['Two', 0.4, 0.6],
        ['three', 0.6, 0.9],
        ['four', 2, 2.3],
      ]),
    ]);
    expect(t.segments.map((s) => s.words.map((w) => w.text))).toEqual([['One.'], ['Two', 'three'], ['four']]);
    expect(t.segments[1]).toMatchObject({ start: 0.4, end: 0.9 });
  });

  it('@remotion/captions Caption[]: milliseconds, leading spaces decide the spacing', () => {
    const t = track([
      { text: 'I', startMs: 0, endMs: 200, timestampMs: 100, confidence: 0.9 },
      { text: ' don', startMs: 200, endMs: 400, timestampMs: null, confidence: null },
      { text: "'t", startMs: 400, endMs: 500, timestampMs: 450, confidence: 1 },
      { text: ' know', startMs: 500, endMs: 900, timestampMs: 700, confidence: 1 },
    ]);
    expect(t.segments).toHaveLength(1);
    expect(t.segments[0]!.words.map((w) => [w.text, w.space, w.start, w.end])).toEqual([
      ['I', false, 0, 0.2],
      ['don', true, 0.2, 0.4],
      ["'t", false, 0.4, 0.5],
      ['know', true, 0.5, 0.9],
    ]);
  });

  it('CJK words are joined without spaces; a Latin word beside them keeps none either, between Latin words one', () => {
    const t = track(
      words([
        ['今日は', 0, 0.5],
        ['いい', 0.5, 0.8],
        ['天気', 0.8, 1.2],
        ['iPhone', 1.2, 1.6],
        ['で', 1.6, 1.7],
        ['OK', 1.8, 2],
        ['thanks', 2, 2.4],
      ]),
    );
    expect(t.segments[0]!.words.map((w) => w.space)).toEqual([false, false, false, false, false, false, true]);
  });

  it('an empty list, or no segments, is an empty track', () => {
    expect(track([]).segments).toEqual([]);
    expect(track({ segments: [] }).segments).toEqual([]);
  });
});

describe('parseCaptionTrack: bad transcripts name the field', () => {
  it('a missing field', () => {
    expect(problems({ segments: [{ words: [{ text: 'a', start: 0 }] }] })).toEqual([
      { path: 'segments[0].words[0].end', message: expect.stringMatching(/^is missing; .*seconds/) },
    ]);
    expect(problems([{ start: 0, end: 1 }])[0]).toMatchObject({ path: '[0].text', message: expect.stringContaining('missing') });
  });

  it('a negative time', () => {
    expect(problems(words([['a', -0.5, 1]]))).toEqual([{ path: '[0].start', message: expect.stringContaining('cannot be negative') }]);
    expect(problems([{ text: 'a', startMs: -10, endMs: 20 }])[0]!.path).toBe('[0].startMs');
  });

  it('an end before its start', () => {
    expect(problems(words([['a', 1, 0.5]]))).toEqual([{ path: '[0].end', message: expect.stringContaining('before its start') }]);
  });

  it('overlapping words, in every shape (a millisecond of rounding is tolerated)', () => {
    expect(
      problems(
        words([
          ['a', 0, 1],
          ['b', 0.5, 1.5],
        ]),
      ),
    ).toEqual([{ path: '[1].start', message: expect.stringContaining('overlaps the word before it') }]);
    expect(
      parseCaptionTrack(
        words([
          ['a', 0, 1],
          ['b', 0.9995, 1.5],
        ]),
      ).ok,
    ).toBe(true);
    expect(
      problems({
        segments: [
          {
            words: words([
              ['a', 0, 1],
              ['b', 0.5, 1.5],
            ]),
          },
        ],
      })[0]!.path,
    ).toBe('segments[0].words[1].start');
    expect(
      problems([
        { text: 'a', startMs: 0, endMs: 500 },
        { text: 'b', startMs: 400, endMs: 600 },
      ])[0],
    ).toMatchObject({ path: '[1].startMs', message: expect.stringContaining('ends at 500') });
  });

  it('overlapping segments, and a word outside its segment', () => {
    expect(problems({ segments: [{ words: words([['a', 0, 1]]) }, { words: words([['b', 0.5, 2]]) }] })).toEqual([
      { path: 'segments[1].start', message: expect.stringContaining('overlaps the segment before it') },
    ]);
    expect(problems({ segments: [{ start: 0, end: 1, words: words([['a', 0.5, 1.5]]) }] })[0]!.path).toBe('segments[0].words[0]');
  });

  it('not a transcript at all', () => {
    expect(problems('hello')[0]!.message).toMatch(/must be a transcript/);
    expect(problems({ words: [] })[0]!.message).toMatch(/must be a transcript/);
  });
});

describe('the captions variable type', () => {
  const declaration = { id: 'transcript', type: 'captions', label: 'Captions', default: [] };

  it('is declared like any variable; a bad default is a default-type problem naming the field', () => {
    expect(parseVariableDeclarations([declaration]).ok).toBe(true);
    const bad = parseVariableDeclarations([{ ...declaration, default: words([['a', 1, 0]]) }]);
    expect(bad.problems).toEqual([
      expect.objectContaining({ rule: 'variables/default-type', path: 'default', message: expect.stringContaining('[0].end') }),
    ]);
  });

  it('an override is checked by the transcript schema: the issue names the variable and the field', () => {
    const parsed = parseVariableDeclarations([declaration]).declarations;
    expect(validateOverrides(parsed, { transcript: words([['a', 0, 1]]) })).toEqual([]);
    const [issue] = validateOverrides(parsed, {
      transcript: {
        segments: [
          {
            words: [
              { text: 'a', start: 0, end: 1 },
              { text: 'b', start: 0.2 },
            ],
          },
        ],
      },
    });
    expect(issue).toMatchObject({ id: 'transcript', kind: 'type-mismatch', field: 'segments[0].words[1].end' });
    expect(issue!.message).toMatch(/^variable "transcript": segments\[0\]\.words\[1\]\.end is missing/);
  });
});
