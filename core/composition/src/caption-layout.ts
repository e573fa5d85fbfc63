import type { CaptionSegment, CaptionWord } from './caption-track.js';
import { graphemes, isCjk } from './caption-words.js';

/**
 * Caption line breaking, one rule for the caption element (measured with the element's font)
 * and the .srt/.vtt sidecar (measured in columns): a Latin word is never split; between CJK
 * characters a line may break anywhere, and no space is put there; a line never starts with
 * closing CJK punctuation nor ends with an opening bracket (the basic kinsoku rule).
 */

/**
 * A caption, page or word is shown at time t when start <= t < end. Both sides are moved by a
 * tenth of a microsecond, so frame n (at n x den / num in floating point) is on the same side
 * of a boundary in the page as in the sidecar's frame arithmetic.
 */
const TIME_EPSILON = 1e-7;

export function activeAt(t: number, start: number, end: number): boolean {
  return t >= start - TIME_EPSILON && t < end - TIME_EPSILON;
}

/** The first frame whose time is at or after `t` (what activeAt's boundary means in frames). */
export function firstFrameAtOrAfter(t: number, fps: { num: number; den: number }): number {
  return Math.max(0, Math.ceil(((t - TIME_EPSILON) * fps.num) / fps.den));
}

/** A run of one word's text on one line; `word` indexes the segment's words (a long CJK word may span lines). */
export interface CaptionPiece {
  word: number;
  text: string;
  /** A space before it on its line. */
  space: boolean;
}

export type CaptionLine = CaptionPiece[];

/** What a caption shows at once: up to maxLines lines, from `start` to `end` (seconds). */
export interface CaptionPage {
  lines: CaptionLine[];
  firstWord: number;
  lastWord: number;
  start: number;
  end: number;
}

export interface CaptionLayoutOptions {
  /** Widest a line may be, in the units of `measure`; Infinity = never wrap. */
  maxWidth: number;
  /** Lines on one page; a segment that needs more is shown as several pages. */
  maxLines: number;
  measure(text: string): number;
}

/** Characters a CJK line must not start with (closing punctuation, small kana, the prolonged sound mark). */
const NO_LINE_START = /^[、。，．・：；！？）」』】〕〉》〙〗｝］ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?;:)\]}'"”’%]/u;
/** Characters a line must not end with (opening brackets). */
const NO_LINE_END = /[（「『【〔〈《〘〖｛［(\[{“‘]$/u;

interface Unit extends CaptionPiece {
  /** A line may break before this unit. */
  breakBefore: boolean;
}

/** Each word as pieces: a CJK character alone, a run of other characters (a Latin word) whole. */
function units(words: readonly CaptionWord[]): Unit[] {
  const out: Unit[] = [];
  let previous = '';
  words.forEach((word, index) => {
    if (word.text === '') return;
    const parts: string[] = [];
    for (const char of graphemes(word.text)) {
      const last = parts.length - 1;
      if (last >= 0 && !isCjk(char) && !isCjk(graphemes(parts[last]!).at(-1))) parts[last] += char;
      else parts.push(char);
    }
    parts.forEach((text, j) => {
      const lastChar = graphemes(previous).at(-1);
      const firstChar = graphemes(text)[0];
      let breakBefore = out.length > 0 && (j === 0 ? word.space || isCjk(lastChar) || isCjk(firstChar) : true);
      if (NO_LINE_START.test(text) || NO_LINE_END.test(previous)) breakBefore = false;
      out.push({ word: index, text, space: j === 0 && word.space && out.length > 0, breakBefore });
      previous = text;
    });
  });
  return out;
}

/** Greedy line filling over the break opportunities; a cluster wider than a line gets a line of its own. */
export function breakCaptionLines(
  words: readonly CaptionWord[],
  options: Pick<CaptionLayoutOptions, 'maxWidth' | 'measure'>,
): CaptionLine[] {
  const clusters: Unit[][] = [];
  for (const unit of units(words)) {
    if (unit.breakBefore || clusters.length === 0) clusters.push([unit]);
    else clusters[clusters.length - 1]!.push(unit);
  }
  const lines: CaptionLine[] = [];
  let line: CaptionPiece[] = [];
  let width = 0;
  const spaceWidth = options.measure(' ');
  for (const cluster of clusters) {
    const clusterWidth = options.measure(cluster.map((unit, i) => (i > 0 && unit.space ? ' ' : '') + unit.text).join(''));
    const gap = cluster[0]!.space ? spaceWidth : 0;
    if (line.length > 0 && width + gap + clusterWidth > options.maxWidth) {
      lines.push(line);
      line = [];
      width = 0;
    }
    cluster.forEach((unit, i) => line.push({ word: unit.word, text: unit.text, space: unit.space && (line.length > 0 || i > 0) }));
    width += (width > 0 ? gap : 0) + clusterWidth;
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/** A segment as the pages it is shown in, each timed from its first word to the next page. */
export function captionPages(segment: CaptionSegment, options: CaptionLayoutOptions): CaptionPage[] {
  const lines = breakCaptionLines(segment.words, options);
  const perPage = Math.max(1, Math.floor(options.maxLines));
  const pages: CaptionPage[] = [];
  for (let i = 0; i < lines.length; i += perPage) {
    const pageLines = lines.slice(i, i + perPage);
    const indexes = pageLines.flat().map((piece) => piece.word);
    const firstWord = Math.min(...indexes);
    pages.push({
      lines: pageLines,
      firstWord,
      lastWord: Math.max(...indexes),
      start: pages.length === 0 ? segment.start : segment.words[firstWord]!.start,
      end: segment.end,
    });
  }
  for (let i = 0; i + 1 < pages.length; i++) pages[i]!.end = pages[i + 1]!.start;
  return pages;
}

/** The text of a line as it reads. */
export function lineText(line: CaptionLine): string {
  return line.map((piece, i) => (i > 0 && piece.space ? ' ' : '') + piece.text).join('');
}

/** Width in terminal-style columns: CJK and Hangul characters count 2, the rest 1 (the sidecar's measure). */
export function textColumns(text: string): number {
  let columns = 0;
  for (const char of graphemes(text)) columns += isCjk(char) || /\p{Script=Hangul}/u.test(char) ? 2 : 1;
  return columns;
}
