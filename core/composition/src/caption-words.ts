import type { CaptionSegment, CaptionWord } from './caption-track.js';

/** A word as a transcript gives it (text not yet trimmed). */
export interface RawWord {
  text: string;
  start: number;
  end: number;
}

/**
 * Scripts written without spaces between words, where a line may break between any two
 * characters: Han, Hiragana, Katakana, Bopomofo, and the CJK punctuation and full-width forms.
 * Hangul is not here: Korean puts spaces between words and breaks lines at them.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef\u30fc]/u;

export function isCjk(char: string | undefined): boolean {
  return char !== undefined && CJK.test(char);
}

/** Line terminators of JavaScript, CSS `white-space: pre` and subtitle files, and the form feed. */
const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]+/g;

/**
 * A word's text on one line: a line break inside a transcript word (a value posted by anyone)
 * would break the caption line in the page and end a cue in an .srt/.vtt file, where a blank line
 * and a timing line start a cue of the sender's choosing. Each run of breaks becomes one space.
 */
export function singleLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}

/** Text split into user-perceived characters (Intl.Segmenter where the engine has it). */
export function graphemes(text: string): string[] {
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  if (Segmenter) return [...new Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((part) => part.segment);
  return Array.from(text);
}

/**
 * Trims each word and decides whether a space goes before it. When any word of the transcript
 * starts with whitespace (Whisper tokens as @remotion/captions gives them: " world", "'t"), that
 * whitespace is the rule. Otherwise words are joined with a space except where either side of
 * the join is a CJK character.
 */
export function spacedWords(words: RawWord[]): CaptionWord[] {
  const explicit = words.some((word) => /^\s/.test(word.text));
  let previous = '';
  return words.map((word, i) => {
    const text = singleLine(word.text).trim();
    const first = graphemes(text)[0];
    const last = graphemes(previous).at(-1);
    const space = i > 0 && previous !== '' && (explicit ? /^\s/.test(word.text) : !isCjk(first) && !isCjk(last));
    if (text !== '') previous = text;
    return { text, start: word.start, end: word.end, space };
  });
}

/** A pause this long between two words starts a new segment. */
export const SEGMENT_PAUSE_SECONDS = 0.8;
const SENTENCE_END = /[.!?…。！？]["'”’」』)）]*$/u;

/**
 * A flat word list into segments (what one caption shows at most before it clears): a new
 * segment after a sentence ends or after a pause of SEGMENT_PAUSE_SECONDS. A segment longer
 * than the caption's lines is split into pages when it is laid out (caption-layout.ts).
 */
export function groupWordsIntoSegments(words: CaptionWord[]): CaptionSegment[] {
  const segments: CaptionSegment[] = [];
  let current: CaptionWord[] = [];
  const close = (): void => {
    if (current.length === 0) return;
    segments.push({ start: current[0]!.start, end: current[current.length - 1]!.end, words: current });
    current = [];
  };
  words.forEach((word, i) => {
    const before = words[i - 1];
    if (before && (word.start - before.end >= SEGMENT_PAUSE_SECONDS || SENTENCE_END.test(before.text))) close();
    current.push(current.length === 0 ? { ...word, space: false } : word);
  });
  close();
  return segments;
}
