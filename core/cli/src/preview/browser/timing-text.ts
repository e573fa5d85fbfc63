/**
 * The attribute values a timeline edit writes: what `data-start`, `data-duration` and
 * `data-media-start` must say for a clip to show exactly the frames it was dragged to. Pure, so
 * it is tested without a browser; the server only checks that what it gets is a timing value.
 */
import { frameTime, type Fps } from '@seekframe/composition';

/**
 * The shortest decimal text near `x` whose number passes `ok` (tried with 0 to 9 decimals,
 * rounded, then down, then up); `x` with 9 decimals when none does.
 */
export function shortestDecimal(x: number, ok: (value: number) => boolean): string {
  for (let d = 0; d <= 9; d++) {
    const scale = 10 ** d;
    for (const round of [Math.round, Math.floor, Math.ceil]) {
      const text = (round(x * scale) / scale).toFixed(d);
      const value = Number(text);
      if (value >= 0 && ok(value)) return trimZeros(text);
    }
  }
  return trimZeros(x.toFixed(9));
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** True when a clip starting at `start` first shows frame `frame` (its time is the first at or after the start). */
export function startsAtFrame(start: number, frame: number, fps: Fps): boolean {
  return start <= frameTime(frame, fps) && (frame === 0 || start > frameTime(frame - 1, fps));
}

/** True when a clip ending at `end` (exclusive) last shows frame `frame - 1`. */
export function endsBeforeFrame(end: number, frame: number, fps: Fps): boolean {
  return end <= frameTime(frame, fps) && end > frameTime(frame - 1, fps);
}

const RELATIVE = /^(\s*[A-Za-z_][\w:.-]*?)(?:(\s*)([+-])(\s*)(\d+(?:\.\d+)?|\.\d+))?(\s*)$/;

/**
 * The new `data-start` text for a clip that now starts at frame `frame`, written the way the
 * old one was: seconds stay seconds; `intro + 0.5` keeps its reference and spacing and gets a
 * new offset (`intro` alone gets ` + x`; a negative offset is written with `-`; zero drops it).
 * `resolved` is the clip's start now, from which the reference's end is known.
 */
export function startText(old: string, resolved: number, frame: number, fps: Fps): string {
  const fits = (start: number): boolean => startsAtFrame(start, frame, fps);
  if (/^\s*(?:\d+(?:\.\d+)?|\.\d+)\s*$/.test(old)) return shortestDecimal(frameTime(frame, fps), fits);
  const match = RELATIVE.exec(old);
  if (!match) return shortestDecimal(frameTime(frame, fps), fits);
  const [, ref = '', before = ' ', sign, after = ' ', amount = '0', trailing = ''] = match;
  const offsetNow = sign ? (sign === '-' ? -1 : 1) * Number(amount) : 0;
  const refEnd = resolved - offsetNow;
  const wanted = frameTime(frame, fps) - refEnd;
  const text = shortestDecimal(Math.abs(wanted), (magnitude) => fits(refEnd + Math.sign(wanted) * magnitude));
  if (Number(text) === 0) return `${ref}${trailing}`;
  const [b, a] = sign ? [before, after] : [' ', ' '];
  return `${ref}${b}${wanted < 0 ? '-' : '+'}${a}${text}${trailing}`;
}

/** `data-duration` for a clip starting at `start` (seconds, as resolved) that shows frames up to `endFrame - 1`. */
export function durationText(start: number, endFrame: number, fps: Fps): string {
  return shortestDecimal(frameTime(endFrame, fps) - start, (d) => endsBeforeFrame(start + d, endFrame, fps));
}

/** Seconds as the shortest text that keeps `x` to within a millionth (a media offset). */
export function secondsText(x: number): string {
  return shortestDecimal(Math.max(0, x), (v) => Math.abs(v - x) < 1e-6);
}
