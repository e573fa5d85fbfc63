import { z } from 'zod';
import { groupWordsIntoSegments, spacedWords, type RawWord } from './caption-words.js';

/**
 * A caption track: what a `captions` variable holds once read. Times are seconds in the
 * composition's timeline. `space` says whether a space goes before the word in running text
 * (false between CJK words, and for a token glued to the one before, like `'t` after `don`).
 */
export interface CaptionWord {
  text: string;
  start: number;
  end: number;
  space: boolean;
}

export interface CaptionSegment {
  start: number;
  end: number;
  words: CaptionWord[];
}

export interface CaptionTrack {
  segments: CaptionSegment[];
}

/** One problem with a transcript: `path` is where in the value (`segments[0].words[2].end`). */
export interface CaptionProblem {
  path: string;
  message: string;
}

export type CaptionTrackResult = { ok: true; track: CaptionTrack } | { ok: false; problems: CaptionProblem[] };

/** Adjacent words may touch; a rounding error this small (a millisecond) is not an overlap. */
const TOLERANCE = 0.001;

const seconds = (what: string) =>
  z
    .number({ error: `must be a number of seconds (${what})` })
    .refine(Number.isFinite, 'must be a finite number')
    .refine((v) => v >= 0, 'must be 0 or more (a time cannot be negative)');
const milliseconds = (what: string) =>
  z
    .number({ error: `must be a number of milliseconds (${what})` })
    .refine(Number.isFinite, 'must be a finite number')
    .refine((v) => v >= 0, 'must be 0 or more (a time cannot be negative)');
const wordText = z.string({ error: 'must be the word as a string' });

/** `{text, start, end}` in seconds; `word` (Whisper) is taken for `text`, `id` and `confidence` are allowed. */
const WordSchema = z.preprocess(
  (value) => (isRecord(value) && value.text === undefined && typeof value.word === 'string' ? { ...value, text: value.word } : value),
  z.object({ text: wordText, start: seconds('when the word begins'), end: seconds('when it ends') }),
);

/** A segment: its words, with optional own start/end (else its first and last word's). */
const SegmentSchema = z.object({
  start: seconds('when the segment begins').optional(),
  end: seconds('when it ends').optional(),
  text: z.string().optional(),
  words: z.array(WordSchema, { error: 'must be an array of {text, start, end} words' }),
});

/** @remotion/captions' `Caption`: one token, times in milliseconds. */
const RemotionCaptionSchema = z.object({
  text: wordText,
  startMs: milliseconds('when the token begins'),
  endMs: milliseconds('when it ends'),
  timestampMs: z.number().nullable().optional(),
  confidence: z.number().nullable().optional(),
});

/** The accepted shapes, told apart by their first entry (documented in docs/guide/captions.md). */
export const CAPTION_INPUT_SHAPES = [
  '{ "segments": [{ "words": [{ "text", "start", "end" }] }] } (seconds; Whisper\'s verbose JSON, whose words say "word", fits too)',
  '[{ "words": [...] }, ...] (the segments array alone)',
  '[{ "text", "start", "end" }, ...] (a flat list of words in seconds, as HyperFrames transcribes)',
  '[{ "text", "startMs", "endMs", "timestampMs", "confidence" }, ...] (@remotion/captions Caption[], milliseconds)',
] as const;

const SHAPE_HINT = `a transcript: ${CAPTION_INPUT_SHAPES.map((shape) => shape.replace(/ \(.*\)$/, '')).join(', or ')}`;

/**
 * Reads a `captions` variable's value into a track, or says every problem with the field it is
 * in. Overlapping words or segments, negative times, an end before its start and missing fields
 * are problems; an empty list is an empty track.
 */
export function parseCaptionTrack(value: unknown): CaptionTrackResult {
  const shape = detectShape(value);
  if (shape === undefined) return fail('', `must be ${SHAPE_HINT}`);
  if (shape === 'empty') return { ok: true, track: { segments: [] } };
  if (shape === 'segments' || shape === 'segment-list') {
    const list = shape === 'segments' ? (value as { segments: unknown }).segments : value;
    const prefix = shape === 'segments' ? 'segments' : '';
    const parsed = z.array(SegmentSchema, { error: 'must be an array of segments' }).safeParse(list);
    if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, prefix, list) };
    return checkedTrack(
      parsed.data.map((segment) => ({ start: segment.start, end: segment.end, words: segment.words })),
      prefix,
    );
  }
  if (shape === 'words') {
    const parsed = z.array(WordSchema).safeParse(value);
    if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, '', value) };
    const problems = checkWords(parsed.data, '');
    if (problems.length > 0) return { ok: false, problems };
    return { ok: true, track: { segments: groupWordsIntoSegments(spacedWords(parsed.data)) } };
  }
  const parsed = z.array(RemotionCaptionSchema).safeParse(value);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, '', value) };
  const words = parsed.data.map((caption) => ({ text: caption.text, start: caption.startMs / 1000, end: caption.endMs / 1000 }));
  const problems = checkWords(words, '', (i, field) => `[${i}].${field === 'start' ? 'startMs' : 'endMs'}`, 1000);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, track: { segments: groupWordsIntoSegments(spacedWords(words)) } };
}

type Shape = 'empty' | 'segments' | 'segment-list' | 'words' | 'remotion';

function detectShape(value: unknown): Shape | undefined {
  if (isRecord(value) && Array.isArray(value.segments)) return value.segments.length === 0 ? 'empty' : 'segments';
  if (!Array.isArray(value)) return undefined;
  if (value.length === 0) return 'empty';
  const first: unknown = value[0];
  if (!isRecord(first)) return 'words'; // reported field by field by the word schema
  if (Array.isArray(first.words)) return 'segment-list';
  if ('startMs' in first || 'endMs' in first) return 'remotion';
  return 'words';
}

function checkedTrack(
  segments: { start?: number | undefined; end?: number | undefined; words: RawWord[] }[],
  prefix: string,
): CaptionTrackResult {
  const problems: CaptionProblem[] = [];
  const at = (i: number): string => join(prefix, `[${i}]`);
  const all: RawWord[] = segments.flatMap((segment) => segment.words);
  const spaced = spacedWords(all);
  let offset = 0;
  let previousEnd = 0;
  const track: CaptionTrack = { segments: [] };
  segments.forEach((segment, i) => {
    // A segment starts on a new caption: no space before its first word.
    const words = spaced.slice(offset, offset + segment.words.length).map((word, w) => (w === 0 ? { ...word, space: false } : word));
    offset += segment.words.length;
    problems.push(...checkWords(segment.words, join(at(i), '.words')));
    const start = segment.start ?? words[0]?.start;
    const end = segment.end ?? words[words.length - 1]?.end;
    if (start === undefined || end === undefined) {
      if (words.length === 0) problems.push({ path: at(i), message: 'has no words and no start/end; give it words, or remove it' });
      return;
    }
    if (end < start)
      problems.push({ path: join(at(i), '.end'), message: `(${end}) is before its start (${start}); swap them or fix the times` });
    if (i > 0 && start < previousEnd - TOLERANCE) {
      problems.push({
        path: join(at(i), '.start'),
        message: `(${start}) overlaps the segment before it, which ends at ${previousEnd}; segments must not overlap`,
      });
    }
    words.forEach((word, w) => {
      if (word.start < start - TOLERANCE || word.end > end + TOLERANCE) {
        problems.push({
          path: join(at(i), `.words[${w}]`),
          message: `(${word.start}-${word.end}) lies outside its segment (${start}-${end}); widen the segment or fix the word's times`,
        });
      }
    });
    previousEnd = Math.max(previousEnd, end);
    track.segments.push({ start, end, words });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, track };
}

/** End after start, each word after the one before; `name` spells a field's path in the input's own terms. */
function checkWords(
  words: RawWord[],
  prefix: string,
  name: (index: number, field: 'start' | 'end') => string = (i, field) => `[${i}].${field}`,
  unit = 1,
): CaptionProblem[] {
  const problems: CaptionProblem[] = [];
  const show = (t: number): string => String(Math.round(t * unit * 1000) / 1000);
  words.forEach((word, i) => {
    if (word.end < word.start)
      problems.push({
        path: join(prefix, name(i, 'end')),
        message: `(${show(word.end)}) is before its start (${show(word.start)}); a word must end after it begins`,
      });
    const before = words[i - 1];
    if (before && word.start < before.end - TOLERANCE) {
      problems.push({
        path: join(prefix, name(i, 'start')),
        message: `(${show(word.start)}) overlaps the word before it, which ends at ${show(before.end)}; words must not overlap`,
      });
    }
  });
  return problems;
}

function zodProblems(error: z.ZodError, prefix: string, input: unknown): CaptionProblem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    return { path: join(prefix, path), message: missing ? `is missing; it ${issue.message}` : issue.message };
  });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}${path}`;
  return joined.startsWith('.') ? joined.slice(1) : joined;
}

function fail(path: string, message: string): CaptionTrackResult {
  return { ok: false, problems: [{ path, message }] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
