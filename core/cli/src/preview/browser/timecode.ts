import { frameAt, type Fps } from '@seekframe/composition';

/**
 * SMPTE-style non-drop timecode `HH:MM:SS:FF` at the nominal rate (29.97 counts 30 frames a
 * second, as editors do); for whole rates it is exact.
 */
export function formatTimecode(frame: number, fps: Fps): string {
  const nominal = Math.max(1, Math.round(fps.num / fps.den));
  const f = Math.max(0, Math.floor(frame));
  const seconds = Math.floor(f / nominal);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}:${pad(f % nominal)}`;
}

/**
 * Reads what a user typed into the timecode box as a frame number: `HH:MM:SS:FF`, `MM:SS:FF` or
 * `SS:FF` (the same nominal rate as `formatTimecode`), or seconds with an `s` (`1.5s`, the frame
 * showing at that time). Undefined when it is neither or a field is out of range.
 */
export function parseTimecode(text: string, fps: Fps): number | undefined {
  const value = text.trim();
  const seconds = /^(\d+(?:\.\d+)?|\.\d+)\s*s$/i.exec(value);
  if (seconds) return frameAt(Number(seconds[1]), fps);
  if (!/^\d+(:\d+){1,3}$/.test(value)) return undefined;
  const nominal = Math.max(1, Math.round(fps.num / fps.den));
  const parts = value.split(':').map(Number);
  const frames = parts.pop() as number;
  while (parts.length < 3) parts.unshift(0);
  const [h, m, s] = parts as [number, number, number];
  if (frames >= nominal || s >= 60 || m >= 60) return undefined;
  return ((h * 60 + m) * 60 + s) * nominal + frames;
}

/** `0.07 / 1.00 s`: the time line under the player. */
export function formatSeconds(t: number, duration: number): string {
  return `${t.toFixed(2)} / ${duration.toFixed(2)} s`;
}
