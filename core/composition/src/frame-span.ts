/**
 * `--frames 30-59` / `"frames": "30-59"` / `{"start":30,"end":59}`: the part of a composition a
 * render outputs, as composition frame numbers at the render's fps, both ends included. Parsed
 * here, once, for the CLI flag, the render spec and every HTTP body (plain functions, no zod and
 * no `node:`, so a Worker and the preview page can use them too).
 */

/** Composition frames `start..end`, both included: frame k of the output is composition frame start + k. */
export interface FrameSpan {
  start: number;
  end: number;
}

export type FrameSpanResult = { ok: true; span: FrameSpan } | { ok: false; message: string };

const SPAN = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/;
const HOW = 'give first-last composition frames like 30-59 (both included, 0 is the first frame), or one frame like 45';

/** `"30-59"`, `"45"`, `{start, end}` (whole numbers, start <= end). The message says what is wrong and what to give. */
export function parseFrameSpan(value: unknown): FrameSpanResult {
  if (typeof value === 'string') {
    const match = SPAN.exec(value);
    if (!match) return { ok: false, message: `"${value}" is not a frame range; ${HOW}` };
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (!isFrame(start) || !isFrame(end)) return { ok: false, message: `"${value}" is too large a frame number; ${HOW}` };
    return checkOrder({ start, end });
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { start, end, ...rest } = value as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) return { ok: false, message: `has unknown field(s) ${extra.join(', ')}; give {"start": 30, "end": 59}` };
    if (!isFrame(start) || !isFrame(end)) {
      return { ok: false, message: `start and end must be whole frame numbers of 0 or more, like {"start": 30, "end": 59}` };
    }
    return checkOrder({ start, end });
  }
  return { ok: false, message: `must be a string like "30-59" or an object like {"start": 30, "end": 59}` };
}

function isFrame(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function checkOrder(span: FrameSpan): FrameSpanResult {
  if (span.start > span.end) return { ok: false, message: `${span.start}-${span.end} ends before it starts; ${HOW}` };
  return { ok: true, span };
}

/** Frames in the span (both ends included). */
export function spanFrames(span: FrameSpan): number {
  return span.end - span.start + 1;
}

/**
 * Why `span` does not fit a composition of `totalFrames` frames, or undefined when it does.
 * `field` is the name the caller's user typed (`--frames`, `frames`).
 */
export function frameSpanProblem(span: FrameSpan, totalFrames: number, field: string, fps?: number): string | undefined {
  if (span.end < totalFrames) return undefined;
  const rate = fps === undefined ? '' : ` at ${Number(fps.toFixed(3))} fps`;
  return `${field} ${span.start}-${span.end} is outside the composition: it has ${totalFrames} frame${totalFrames === 1 ? '' : 's'}${rate}, numbered 0-${totalFrames - 1}; give ${field} within 0-${totalFrames - 1}`;
}
