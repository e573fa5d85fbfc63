import { describe, expect, it } from 'vitest';
import { activeAt, breakCaptionLines, captionPages, firstFrameAtOrAfter, lineText, textColumns } from './caption-layout.js';
import { spacedWords } from './caption-words.js';
import type { CaptionSegment } from './caption-track.js';

/** Words 1 s apart, spaced by the transcript rule. */
function wordsOf(texts: string[]) {
  return spacedWords(texts.map((text, i) => ({ text, start: i, end: i + 1 })));
}

const columns = { measure: textColumns };
const lines = (texts: string[], maxWidth: number) => breakCaptionLines(wordsOf(texts), { maxWidth, ...columns }).map(lineText);

describe('breakCaptionLines', () => {
  it('Latin: breaks between words, never inside one', () => {
    expect(lines(['The', 'quick', 'brown', 'fox', 'jumps'], 10)).toEqual(['The quick', 'brown fox', 'jumps']);
    // A word wider than the line gets a line of its own rather than being cut.
    expect(lines(['a', 'extraordinarily', 'b'], 6)).toEqual(['a', 'extraordinarily', 'b']);
  });

  it('CJK: no spaces between words, and a line may break between any two characters, also inside a word', () => {
    // 今日は/いい/天気/ですね: 9 characters = 18 columns; 10 columns hold 5 characters.
    expect(lines(['今日は', 'いい', '天気', 'ですね'], 10)).toEqual(['今日はいい', '天気ですね']);
    expect(lines(['東京特許許可局'], 6)).toEqual(['東京特', '許許可', '局']);
  });

  it('CJK with Latin words inside: the Latin word stays whole, no space is added at either side', () => {
    // iPhone用の/ケース: "iPhone" is 6 columns and must not split.
    expect(lines(['新しい', 'iPhone', '用の', 'ケース'], 12)).toEqual(['新しいiPhone', '用のケース']);
    expect(lines(['Seekframe', 'で', '動画', 'を', '作る'], 10)).toEqual(['Seekframe', 'で動画を作', 'る']);
  });

  it('kinsoku: closing punctuation never starts a line, an opening bracket never ends one', () => {
    // Without the rule the 。 would start line 2.
    expect(lines(['今日は', '晴れ', '。'], 10)).toEqual(['今日は晴', 'れ。']);
    // 6 columns hold 3 characters: 「 may not end line 1, 」 and the small っ may not start a line.
    expect(lines(['彼は', '「', 'はい', '」', 'と', '言った'], 6)).toEqual(['彼は', '「は', 'い」と', '言った']);
  });

  it('Hangul keeps its spaces and breaks at them', () => {
    expect(lines(['안녕하세요', '반갑습니다'], 12)).toEqual(['안녕하세요', '반갑습니다']);
    expect(lines(['안녕', '세상'], 20)).toEqual(['안녕 세상']);
  });

  it('a token glued to the one before (no leading space) stays on its line', () => {
    const glued = spacedWords([
      { text: ' I', start: 0, end: 1 },
      { text: ' don', start: 1, end: 2 },
      { text: "'t", start: 2, end: 3 },
    ]);
    expect(breakCaptionLines(glued, { maxWidth: 4, ...columns }).map(lineText)).toEqual(['I', "don't"]);
  });

  it('each piece points back at its word, so a CJK word split over two lines highlights on both', () => {
    const result = breakCaptionLines(wordsOf(['ab', '東京特許']), { maxWidth: 6, ...columns });
    expect(result.map((line) => line.map((p) => [p.word, p.text]))).toEqual([
      [
        [0, 'ab'],
        [1, '東'],
        [1, '京'],
      ],
      [
        [1, '特'],
        [1, '許'],
      ],
    ]);
  });

  it('uses Intl.Segmenter graphemes: an emoji with a modifier or a combining mark is one character', () => {
    expect(lines(['👍🏽', 'e\u0301'], 100)).toEqual(['👍🏽 e\u0301']);
  });
});

describe('captionPages', () => {
  const segment: CaptionSegment = {
    start: 0.5,
    end: 6,
    words: wordsOf(['one', 'two', 'three', 'four', 'five', 'six']).map((w, i) => ({ ...w, start: i + 0.5, end: i + 1.5 })),
  };

  it('splits a segment into pages of maxLines, each shown from its first word until the next page', () => {
    const pages = captionPages(segment, { maxWidth: 9, maxLines: 1, measure: textColumns });
    expect(pages.map((p) => [p.lines.map(lineText), p.start, p.end])).toEqual([
      [['one two'], 0.5, 2.5],
      [['three'], 2.5, 3.5],
      [['four five'], 3.5, 5.5],
      [['six'], 5.5, 6],
    ]);
    expect(captionPages(segment, { maxWidth: 9, maxLines: 2, measure: textColumns }).map((p) => [p.firstWord, p.lastWord])).toEqual([
      [0, 2],
      [3, 5],
    ]);
  });
});

describe('frame boundaries', () => {
  it('activeAt and firstFrameAtOrAfter agree for every frame, also at 30000/1001', () => {
    for (const fps of [
      { num: 30, den: 1 },
      { num: 30000, den: 1001 },
      { num: 24, den: 1 },
    ]) {
      for (const [start, end] of [
        [0, 1],
        [1 / 3, 2 / 3],
        [0.1, 0.1001],
        [1.001, 2.002],
      ] as const) {
        for (let n = 0; n < 80; n++) {
          const t = (n * fps.den) / fps.num;
          const shown = n >= firstFrameAtOrAfter(start, fps) && n < firstFrameAtOrAfter(end, fps);
          expect(activeAt(t, start, end)).toBe(shown);
        }
      }
    }
  });
});
