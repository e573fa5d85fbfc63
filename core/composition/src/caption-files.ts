import { captionPages, firstFrameAtOrAfter, lineText, textColumns } from './caption-layout.js';
import { singleLine } from './caption-words.js';
import type { CaptionTrack } from './caption-track.js';
import { frameTime, type Fps } from './frame-timing.js';

/** The sidecar formats `--captions` writes, by file extension. */
export const CAPTION_FILE_FORMATS = ['srt', 'vtt'] as const;
export type CaptionFileFormat = (typeof CAPTION_FILE_FORMATS)[number];

export function captionFileFormat(file: string): CaptionFileFormat | undefined {
  const match = /\.(srt|vtt)$/i.exec(file);
  return match ? (match[1]!.toLowerCase() as CaptionFileFormat) : undefined;
}

/** Subtitle line length in columns (a CJK character counts 2): the common 42-character guideline. */
export const SIDECAR_LINE_COLUMNS = 42;
/** Lines per cue. */
export const SIDECAR_MAX_LINES = 2;

/** One cue: frames [startFrame, endFrame) of the render, and its lines of text. */
export interface CaptionCue {
  startFrame: number;
  endFrame: number;
  lines: string[];
}

/**
 * The cues of a track as the rendered frames show them. Frame n shows what is active at its
 * time n x den / num (the caption element's rule), so a cue starts at the first frame at or
 * after its start and ends at the first frame at or after its end: both on frame boundaries.
 * Cues that no frame shows (shorter than a frame, or past the end) are left out.
 */
export function captionCues(track: CaptionTrack, fps: Fps, totalFrames: number): CaptionCue[] {
  const cues: CaptionCue[] = [];
  const frame = (t: number): number => Math.min(totalFrames, firstFrameAtOrAfter(t, fps));
  for (const segment of track.segments) {
    for (const page of captionPages(segment, { maxWidth: SIDECAR_LINE_COLUMNS, maxLines: SIDECAR_MAX_LINES, measure: textColumns })) {
      const startFrame = frame(page.start);
      const endFrame = frame(page.end);
      if (endFrame > startFrame) cues.push({ startFrame, endFrame, lines: page.lines.map(lineText) });
    }
  }
  return cues;
}

/** The cues as an .srt or .vtt file. Times are the frame boundaries, written to the millisecond. */
export function formatCaptionFile(cues: readonly CaptionCue[], fps: Fps, format: CaptionFileFormat): string {
  const stamp = (frame: number): string => timestamp(frameTime(frame, fps), format === 'srt' ? ',' : '.');
  const blocks = cues.map((cue, i) => {
    const text = cue.lines.map((line) => (format === 'vtt' ? escapeVtt(singleLine(line)) : escapeSrt(singleLine(line)))).join('\n');
    return `${format === 'srt' ? `${i + 1}\n` : ''}${stamp(cue.startFrame)} --> ${stamp(cue.endFrame)}\n${text}\n`;
  });
  return format === 'srt' ? blocks.join('\n') : `WEBVTT\n\n${blocks.join('\n')}`;
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}${separator}${pad(ms % 1000, 3)}`;
}

/** WebVTT cue text treats `<` and `&` as markup, and may not contain `-->` (escaping `>` covers it). */
function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * SRT has no escapes, and a text line holding `-->` reads as a timing line to many parsers (a cue
 * the transcript's sender would choose): it is written `->`.
 */
function escapeSrt(text: string): string {
  return text.replace(/-->/g, '->');
}
