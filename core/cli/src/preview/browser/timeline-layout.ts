/**
 * The timeline's geometry, pure so it is tested without a browser: rows per track, the time ruler's
 * ticks, zoom steps and pixel <-> time conversion. The clips themselves come from the player
 * (`<seekframe-player>.timeline()`, the runtime's own resolution); nothing here computes timing.
 */
import { frameTime, type Fps } from '@seekframe/composition';

export interface LaidClip {
  key: string;
  trackIndex: number | undefined;
  start: number;
  end: number;
  /** The sub-composition instance the clip is in (its key); its tracks are rows of their own. */
  group?: string | undefined;
}

export interface TrackRow<C extends LaidClip> {
  /** `<group>|<track>`: names the row for mute, solo and hide. */
  id: string;
  /** undefined: clips without data-track-index. */
  trackIndex: number | undefined;
  group: string | undefined;
  label: string;
  clips: C[];
}

/**
 * One row per `data-track-index`, ascending; clips without one share a last row. The clips of
 * each sub-composition instance follow in rows of their own, in the order the instances come.
 * Clips sorted by start.
 */
export function trackRows<C extends LaidClip>(clips: readonly C[]): TrackRow<C>[] {
  const groups: Array<string | undefined> = [];
  const rows = new Map<string, C[]>();
  const id = (clip: LaidClip): string => `${clip.group ?? ''}|${clip.trackIndex ?? 'none'}`;
  for (const clip of clips) {
    if (!groups.includes(clip.group)) groups.push(clip.group);
    rows.set(id(clip), [...(rows.get(id(clip)) ?? []), clip]);
  }
  const order = (list: C[]): [number, number] => [groups.indexOf(list[0]!.group), list[0]!.trackIndex ?? Infinity];
  return [...rows.entries()]
    .sort(([, a], [, b]) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1])
    .map(([rowId, list]) => {
      const { group, trackIndex } = list[0]!;
      const track = trackIndex === undefined ? 'No track' : `Track ${trackIndex}`;
      return {
        id: rowId,
        trackIndex,
        group,
        label: group ? `${group} › ${track}` : track,
        clips: [...list].sort((x, y) => x.start - y.start || x.end - y.end),
      };
    });
}

/** Zoom factors relative to "fit" (the whole composition in the visible width). */
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64] as const;

/** The next zoom step in `direction`, stopping where one frame would be wider than `maxFramePx`. */
export function stepZoom(current: number, direction: 1 | -1, fitPxPerSecond: number, fps: Fps, maxFramePx = 80): number {
  const framePx = (zoom: number): number => (fitPxPerSecond * zoom * fps.den) / fps.num;
  if (direction > 0) return ZOOM_STEPS.find((z) => z > current + 1e-9 && framePx(z) <= Math.max(maxFramePx, framePx(1))) ?? current;
  return [...ZOOM_STEPS].reverse().find((z) => z < current - 1e-9) ?? 1;
}

export interface Tick {
  /** Seconds. */
  t: number;
  /** Shown under the tick, or empty. */
  label: string;
  major: boolean;
}

const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600];

/**
 * Ruler ticks: whole seconds (every 1, 2, 5... s so labels stay `minLabelPx` apart) labelled
 * `3s`; when frames are far enough apart, frame ticks between them, labelled `15f` when there is
 * room (frame within its second at the nominal rate).
 */
export function rulerTicks(duration: number, pxPerSecond: number, fps: Fps, minLabelPx = 56): Tick[] {
  const ticks: Tick[] = [];
  const step = SECOND_STEPS.find((s) => s * pxPerSecond >= minLabelPx) ?? SECOND_STEPS.at(-1)!;
  const nominal = Math.max(1, Math.round(fps.num / fps.den));
  const framePx = (pxPerSecond * fps.den) / fps.num;
  const frameEvery = framePx >= 6 ? Math.max(1, [1, 2, 5, 10, 15].find((n) => n * framePx >= minLabelPx) ?? nominal) : 0;
  for (let s = 0; s <= duration + 1e-9; s += step) ticks.push({ t: s, label: `${formatSecondsLabel(s)}`, major: true });
  if (step === 1 && framePx >= 6) {
    const total = Math.round((duration * fps.num) / fps.den);
    for (let frame = 0; frame <= total; frame++) {
      const inSecond = frame % nominal;
      if (inSecond === 0) continue;
      ticks.push({ t: frameTime(frame, fps), label: frameEvery > 0 && inSecond % frameEvery === 0 ? `${inSecond}f` : '', major: false });
    }
  }
  return ticks.sort((a, b) => a.t - b.t);
}

function formatSecondsLabel(s: number): string {
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60 ? `${s % 60}s` : ''}` : `${s}s`;
}

/** The time at `x` pixels into the timeline's content, clamped to [0, duration]. */
export function timeAtX(x: number, pxPerSecond: number, duration: number): number {
  return Math.min(Math.max(0, x / pxPerSecond), duration);
}

/** The frames a clip shows: from the first frame at or after its start to the last one before its end. */
export function clipFrames(start: number, end: number, fps: Fps): { first: number; last: number } {
  const first = Math.max(0, Math.ceil((start * fps.num) / fps.den - 1e-6));
  const last = Math.max(first, Math.ceil((end * fps.num) / fps.den - 1e-6) - 1);
  return { first, last };
}
