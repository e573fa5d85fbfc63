import type {
  SeekframeRuntime,
  InspectedAnimation,
  InspectedCaptions,
  InspectedClip,
  InspectedElement,
  InspectedLabel,
  TimelineInspection,
} from '../runtime-types.js';
import { describeElement, type Clip } from './clip-timeline.js';
import { cssPath } from './css-path.js';

/** The part of a GSAP animation (tween or timeline) read here; duck-typed so GSAP is never bundled. */
interface GsapAnimation {
  startTime?: () => unknown;
  duration?: () => unknown;
  totalDuration?: () => unknown;
  paused?: () => unknown;
  parent?: GsapAnimation | null;
  targets?: () => unknown[];
  getChildren?: (nested: boolean, tweens: boolean, timelines: boolean) => GsapAnimation[];
  vars?: Record<string, unknown>;
  /** Timelines: label name -> seconds in the timeline's own time. */
  labels?: Record<string, unknown>;
}

/** An animation before its target is described and its clips are known. */
export type FoundAnimation = Omit<InspectedAnimation, 'target' | 'clips'> & { el: Element };

/** Keys of GSAP vars that are settings, not animated properties. */
const GSAP_SETTINGS =
  /^(duration|ease|delay|repeat|repeatDelay|yoyo|yoyoEase|stagger|paused|immediateRender|overwrite|id|data|lazy|inherit|runBackwards|startAt|callbackScope|reversed|keyframes|defaults|parent|smoothChildTiming|autoRemoveChildren|on[A-Z].*)$/;
/** Keyframe members that are not properties. */
const KEYFRAME_SETTINGS = new Set(['offset', 'computedOffset', 'easing', 'composite']);
/** Enough to describe any real composition; a page with more is cut here rather than flooding a report. */
const MAX_ANIMATIONS = 500;

export interface TimelineSources {
  win: Window;
  duration: number;
  clips: readonly Clip[];
  /** The animation seeker's adopted animations with their births. */
  adopted: ReadonlyArray<[Animation, number]>;
  /** Start of the composition a `__timelines` key belongs to (0 for the root). */
  timelineOffset(key: string): number;
  subs: ReadonlyArray<{ id: string; host: HTMLElement; runtime: Pick<SeekframeRuntime, 'inspectTimeline'> | undefined }>;
  /** The document's caption elements with their transcripts' segments (CaptionElements.spans). */
  captions: ReadonlyArray<{ el: Element; variable: string; segments: ReadonlyArray<{ start: number; end: number }> }>;
}

/**
 * What moves when in one document: its clips, its animations (each with the clips that contain
 * its target), its caption elements with their transcripts' segments, then each
 * sub-composition's, shifted by the host's start and cut at its end.
 */
export async function inspectTimeline(sources: TimelineSources): Promise<TimelineInspection> {
  const { duration } = sources;
  const clips: InspectedClip[] = sources.clips.map((clip) => ({
    ...describeTarget(clip.el),
    kind: clip.kind,
    ...(clip.id ? { id: clip.id } : {}),
    start: clip.start,
    end: Math.min(clip.end, duration),
  }));
  const containing = (el: Element): number[] => sources.clips.flatMap((clip, index) => (clip.el.contains(el) ? [index] : []));
  const found = [
    ...findGsapAnimations(sources.win, duration, sources.timelineOffset),
    ...findDocumentAnimations(sources.adopted, duration),
  ];
  const animations: InspectedAnimation[] = found.map(({ el, ...animation }) => ({
    ...animation,
    target: describeTarget(el),
    clips: containing(el),
  }));
  const labels = findGsapLabels(sources.win, duration, sources.timelineOffset);
  const captions: InspectedCaptions[] = sources.captions.map(({ el, variable, segments }) => ({
    ...describeTarget(el),
    variable,
    segments: segments.map(({ start, end }) => ({ start, end })),
    clips: containing(el),
  }));
  for (const sub of sources.subs) {
    const child = await sub.runtime?.inspectTimeline?.();
    if (!child) continue;
    const hostIndex = sources.clips.findIndex((c) => c.el === sub.host);
    const start = hostIndex >= 0 ? clips[hostIndex]!.start : 0;
    const end = hostIndex >= 0 ? clips[hostIndex]!.end : duration;
    const host = cssPath(sub.host);
    const base = clips.length;
    const inside = <T extends InspectedElement>(el: T): T => ({ ...el, label: `[${sub.id}] ${el.label}`, hosts: [host, ...el.hosts] });
    const shift = (t: number): number => Math.min(t + start, end);
    // The host's clip, then the child's clips renumbered after this document's.
    const childClips = (indices: number[]): number[] => [...(hostIndex >= 0 ? [hostIndex] : []), ...indices.map((i) => i + base)];
    for (const clip of child.clips) clips.push({ ...inside(clip), start: shift(clip.start), end: shift(clip.end) });
    for (const animation of child.animations) {
      animations.push({
        ...animation,
        target: inside(animation.target),
        start: shift(animation.start),
        end: shift(animation.end),
        clips: childClips(animation.clips),
      });
    }
    for (const label of child.labels ?? []) {
      if (label.time + start <= end) labels.push({ ...label, time: label.time + start, timeline: `[${sub.id}] ${label.timeline}` });
    }
    for (const caption of child.captions ?? []) {
      captions.push({
        ...inside(caption),
        segments: caption.segments.map((segment) => ({ start: segment.start + start, end: segment.end + start })),
        clips: childClips(caption.clips),
      });
    }
  }
  return { duration, clips, animations, labels: labels.sort((a, b) => a.time - b.time), captions };
}

export function describeTarget(el: Element): InspectedElement {
  return { label: describeElement(el), selector: cssPath(el), hosts: [] };
}

/**
 * GSAP tweens of the timelines in `window.__timelines` (registered: the runtime seeks them) and
 * of the global timeline's other children (not registered: only GSAP's own ticker moves them,
 * and a paused one never moves), one entry per tween and element target, in composition seconds.
 */
export function findGsapAnimations(win: Window, duration: number, timelineOffset: (key: string) => number): FoundAnimation[] {
  const out: FoundAnimation[] = [];
  const registry = (win as unknown as { __timelines?: Record<string, GsapAnimation | undefined> }).__timelines;
  const registered = new Set<GsapAnimation>();
  if (registry && typeof registry === 'object') {
    for (const [key, timeline] of Object.entries(registry)) {
      if (!timeline || typeof timeline !== 'object') continue;
      registered.add(timeline);
      addTweens(out, timeline, timeline, timelineOffset(key), duration, { name: `__timelines["${key}"]`, registered: true, paused: false });
    }
  }
  const global = (win as unknown as { gsap?: { globalTimeline?: GsapAnimation } }).gsap?.globalTimeline;
  for (const child of safeCall(() => global?.getChildren?.(false, true, true)) ?? []) {
    if (registered.has(child)) continue;
    const paused = safeCall(() => child.paused?.()) === true;
    const isTimeline = typeof child.getChildren === 'function';
    addTweens(out, child, global!, 0, duration, {
      name: isTimeline ? 'gsap timeline (not in window.__timelines)' : 'gsap tween (not in window.__timelines)',
      registered: false,
      paused,
    });
  }
  return out;
}

function addTweens(
  out: FoundAnimation[],
  from: GsapAnimation,
  root: GsapAnimation,
  offset: number,
  duration: number,
  info: { name: string; registered: boolean; paused: boolean },
): void {
  const tweens = typeof from.getChildren === 'function' ? (safeCall(() => from.getChildren!(true, true, false)) ?? []) : [from];
  for (const tween of tweens) {
    const length = numberOf(tween, 'totalDuration') ?? numberOf(tween, 'duration') ?? 0;
    // gsap.set() and zero-length tweens place things; they do not move them.
    if (!(length > 0)) continue;
    const start = offset + startInRoot(tween, root);
    const properties = Object.keys(tween.vars ?? {})
      .filter((key) => !GSAP_SETTINGS.test(key))
      .join(', ');
    const ease = easeOf(tween, root);
    const nested = nestedPath(tween, root);
    for (const target of safeCall(() => tween.targets?.()) ?? []) {
      if (out.length >= MAX_ANIMATIONS) return;
      if (!isElement(target)) continue;
      out.push({
        kind: 'gsap',
        name: info.name,
        properties,
        ...(ease ? { ease } : {}),
        ...(nested ? { timeline: nested } : {}),
        el: target,
        start: clamp(start, duration),
        end: clamp(start + length, duration),
        duration: numberOf(tween, 'duration') ?? length,
        registered: info.registered,
        paused: info.paused,
      });
    }
  }
}

/** The ease a tween runs with: its own `ease`, else the nearest parent's `defaults.ease`. */
function easeOf(tween: GsapAnimation, root: GsapAnimation): string | undefined {
  let node: GsapAnimation | null | undefined = tween;
  let own: unknown = tween.vars?.ease;
  while (own === undefined && node && node !== root) {
    node = node.parent;
    own = (node?.vars?.defaults as Record<string, unknown> | undefined)?.ease;
  }
  if (typeof own === 'string') return own;
  return typeof own === 'function' ? 'custom' : undefined;
}

/** A timeline's name in paths: its `id`, else `timeline@<start>s`. */
function timelineName(timeline: GsapAnimation): string {
  const id = timeline.vars?.id;
  return typeof id === 'string' && id ? id : `timeline@${Number((numberOf(timeline, 'startTime') ?? 0).toFixed(3))}s`;
}

/** The nested timelines between `animation` and `root`, outermost first (`intro › title`), or undefined at the top. */
function nestedPath(animation: GsapAnimation, root: GsapAnimation): string | undefined {
  const names: string[] = [];
  for (let node = animation.parent; node && node !== root; node = node.parent) names.unshift(timelineName(node));
  return names.length > 0 ? names.join(' › ') : undefined;
}

/** Labels of the registered timelines and of the timelines nested in them, in composition seconds. */
export function findGsapLabels(win: Window, duration: number, timelineOffset: (key: string) => number): InspectedLabel[] {
  const out: InspectedLabel[] = [];
  const registry = (win as unknown as { __timelines?: Record<string, GsapAnimation | undefined> }).__timelines;
  if (!registry || typeof registry !== 'object') return out;
  for (const [key, root] of Object.entries(registry)) {
    if (!root || typeof root !== 'object') continue;
    const offset = timelineOffset(key);
    const nested = typeof root.getChildren === 'function' ? (safeCall(() => root.getChildren!(true, false, true)) ?? []) : [];
    for (const timeline of [root, ...nested]) {
      const base = timeline === root ? offset : offset + startInRoot(timeline, root);
      const path = timeline === root ? '' : ` › ${[nestedPath(timeline, root), timelineName(timeline)].filter(Boolean).join(' › ')}`;
      for (const [name, at] of Object.entries(safeCall(() => timeline.labels) ?? {})) {
        const time = base + Number(at);
        if (out.length >= MAX_ANIMATIONS) return out;
        if (Number.isFinite(time) && time >= 0 && time <= duration) out.push({ name, time, timeline: `__timelines["${key}"]${path}` });
      }
    }
  }
  return out;
}

/** Start of a tween in its root timeline's time: its own start plus every parent's, up to the root. */
function startInRoot(animation: GsapAnimation, root: GsapAnimation): number {
  let total = 0;
  let node: GsapAnimation | null | undefined = animation;
  while (node && node !== root) {
    total += numberOf(node, 'startTime') ?? 0;
    node = node.parent;
  }
  return total;
}

/**
 * CSS animations, CSS transitions and Web Animations the runtime adopted, with `birth` (the
 * composition second at which it was first seen): it plays from there, delay included.
 */
export function findDocumentAnimations(adopted: ReadonlyArray<[Animation, number]>, duration: number): FoundAnimation[] {
  const out: FoundAnimation[] = [];
  for (const [animation, birth] of adopted) {
    if (out.length >= MAX_ANIMATIONS) break;
    const effect = animation.effect as KeyframeEffect | null;
    const el = effect && 'target' in effect ? effect.target : null;
    // Cancelled since it was adopted (a class removed): it animates nothing any more.
    if (!el || !el.isConnected || animation.playState === 'idle') continue;
    const timing = effect!.getComputedTiming();
    const delay = Number(timing.delay ?? 0) / 1000;
    const active = Number(timing.activeDuration ?? 0) / 1000;
    const start = birth + delay;
    const named = animation as Animation & { animationName?: string; transitionProperty?: string };
    const kind: InspectedAnimation['kind'] =
      typeof named.animationName === 'string'
        ? 'css-animation'
        : typeof named.transitionProperty === 'string'
          ? 'css-transition'
          : 'web-animation';
    out.push({
      kind,
      name: named.animationName ?? named.transitionProperty ?? (animation.id || 'element.animate()'),
      properties: keyframeProperties(effect!),
      el,
      start: clamp(start, duration),
      end: clamp(Number.isFinite(active) ? start + active : duration, duration),
      duration: Number(timing.duration) / 1000 || 0,
    });
  }
  return out;
}

function keyframeProperties(effect: KeyframeEffect): string {
  const names = new Set<string>();
  for (const frame of safeCall(() => effect.getKeyframes()) ?? [])
    for (const key of Object.keys(frame)) if (!KEYFRAME_SETTINGS.has(key)) names.add(key);
  return [...names].join(', ');
}

function isElement(value: unknown): value is Element {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Node).nodeType === 1 &&
    typeof (value as Element).getBoundingClientRect === 'function'
  );
}

/** A GSAP getter's number (called as a method: GSAP reads `this`), or undefined. */
function numberOf(animation: GsapAnimation, method: 'startTime' | 'duration' | 'totalDuration'): number | undefined {
  const value = Number(safeCall(() => animation[method]?.()));
  return Number.isFinite(value) ? value : undefined;
}

function clamp(seconds: number, duration: number): number {
  return Math.min(Math.max(0, seconds), duration);
}

/** Author objects may throw from any getter; an inspection never fails the page. */
function safeCall<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
