/**
 * Where a still is taken: `--time 1.5s` / `--frame 45` (`--times 0,1.5,3`, `--frames 0,45`), and
 * `"still": {"time": "1.5s"}` / `{"frame": 45}` in a request body. Parsed here once, for the CLI
 * and every HTTP face (no zod, no `node:`). A time shows the frame on screen at that time, the
 * one a render of every frame has there, so a still is always a frame of the render.
 */
import { frameAt, frameTime, type Fps } from './frame-timing.js';

/** One still: a time in seconds, or a composition frame number at the render's fps. */
export type StillAt = { time: number } | { frame: number };

export type StillParse<T> = { ok: true; value: T } | { ok: false; message: string };

const TIME = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(s|ms)?\s*$/i;
const FRAME = /^\s*(\d+)\s*$/;

/** `1.5s`, `1500ms`, `1.5` (seconds), or a number of seconds. */
export function parseStillTime(value: unknown): StillParse<number> {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0
      ? { ok: true, value }
      : { ok: false, message: `${value} is not a time; give seconds of 0 or more, like 1.5` };
  }
  const match = typeof value === 'string' ? TIME.exec(value) : null;
  if (!match) {
    return { ok: false, message: `${JSON.stringify(value)} is not a time; give seconds like 1.5s, 1500ms or 1.5` };
  }
  const amount = Number(match[1]);
  return { ok: true, value: match[2]?.toLowerCase() === 'ms' ? amount / 1000 : amount };
}

/** A whole composition frame number of 0 or more (`45` or `"45"`). */
export function parseStillFrame(value: unknown): StillParse<number> {
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? FRAME.exec(text) : null;
  const frame = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(frame)) {
    return { ok: false, message: `${JSON.stringify(value)} is not a frame number; give a whole number like 45 (0 is the first frame)` };
  }
  return { ok: true, value: frame };
}

/** `0,1.5s,3` or `0,45`: each item through `parse`, the first problem named with its place. */
export function parseStillList<T>(text: string, parse: (item: string) => StillParse<T>): StillParse<T[]> {
  const items = text.split(',');
  const values: T[] = [];
  for (const [i, item] of items.entries()) {
    const parsed = parse(item);
    if (!parsed.ok) return { ok: false, message: items.length > 1 ? `item ${i + 1}: ${parsed.message}` : parsed.message };
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}

/** `{time}` (a time form) or `{frame}`, exactly one: the body's `still`. */
export function parseStillAt(value: unknown): StillParse<StillAt> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'must be an object like {"time": "1.5s"} or {"frame": 45}' };
  }
  const keys = Object.keys(value);
  if (keys.length !== 1 || (keys[0] !== 'time' && keys[0] !== 'frame')) {
    return {
      ok: false,
      message: `must have exactly one of time or frame, like {"time": "1.5s"} or {"frame": 45}; got ${keys.join(', ') || 'none'}`,
    };
  }
  const record = value as Record<string, unknown>;
  if (keys[0] === 'time') {
    const time = parseStillTime(record.time);
    return time.ok ? { ok: true, value: { time: time.value } } : { ok: false, message: `time: ${time.message}` };
  }
  const frame = parseStillFrame(record.frame);
  return frame.ok ? { ok: true, value: { frame: frame.value } } : { ok: false, message: `frame: ${frame.message}` };
}

/**
 * The composition frame a still shows, or why it has none: a time past the last frame's interval
 * or a frame past the last one. `field` names it as the user typed it (`--time`, `still.time`).
 */
export function stillFrame(at: StillAt, fps: Fps, totalFrames: number, field: string): StillParse<number> {
  const last = totalFrames - 1;
  const rate = Number((fps.num / fps.den).toFixed(3));
  if ('frame' in at) {
    if (at.frame <= last) return { ok: true, value: at.frame };
    return {
      ok: false,
      message: `${field} ${at.frame} is past the end: the composition has ${totalFrames} frame${totalFrames === 1 ? '' : 's'} at ${rate} fps, numbered 0-${last}`,
    };
  }
  const frame = frameAt(at.time, fps);
  if (frame <= last) return { ok: true, value: frame };
  const duration = Number(frameTime(totalFrames, fps).toFixed(3));
  const lastShown = Number(frameTime(last, fps).toFixed(3));
  return {
    ok: false,
    message: `${field} ${Number(at.time.toFixed(3))}s is past the end: the composition is ${duration} s long (${totalFrames} frames at ${rate} fps); give a time from 0 to under ${duration}s (its last frame shows from ${lastShown}s)`,
  };
}
