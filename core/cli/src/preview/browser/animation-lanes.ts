/**
 * The animation lanes under the clips: what `__seekframe.inspectTimeline()` found (GSAP tweens of
 * the registered timelines, nested ones included; CSS animations and transitions; Web
 * Animations), one lane per animated element, under the innermost clip that holds it (or under
 * "Animations" when no clip does, as in a GSAP-only composition).
 */
import type { InspectedAnimation, InspectedElement, InspectedLabel, TimelineInspection } from '@seekframe/runtime';
import { clipHolding, type StudioClip } from './studio-clips.js';

export interface LaneAnimation extends InspectedAnimation {
  /** Index in the inspection's list (the bar's key). */
  index: number;
}

export interface Lane {
  /** The clip it belongs under, or null. */
  owner: string | null;
  /** The animated element: the last step of its selector (`div.bg-spot`, `#title`). */
  label: string;
  /** Its whole selector, from the top document (hosts first). */
  selector: string;
  animations: LaneAnimation[];
}

export interface AnimationView {
  lanes: Lane[];
  labels: InspectedLabel[];
  animations: LaneAnimation[];
}

type InspectWindow = Window & { __seekframe?: { inspectTimeline?: () => Promise<TimelineInspection> } };

/** The element an inspection names, found from the top document down through its hosts' frames. */
export function resolveTarget(win: Window, target: InspectedElement): Element | undefined {
  let doc: Document | null | undefined = win.document;
  try {
    for (const host of target.hosts) doc = doc?.querySelector(host)?.querySelector('iframe')?.contentDocument;
    return doc?.querySelector(target.selector) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Groups the animations into lanes, in clip order, each lane's bars by start. */
export function buildLanes(inspection: TimelineInspection, clips: readonly StudioClip[], win: Window): AnimationView {
  const animations = inspection.animations.map((a, index) => ({ ...a, index }));
  const byKey = new Map<string, Lane>();
  for (const animation of animations) {
    const el = resolveTarget(win, animation.target);
    const owner = el ? (clipHolding(clips, el)?.key ?? null) : null;
    const id = `${owner ?? ''}\0${animation.target.hosts.join('>')}\0${animation.target.selector}`;
    let lane = byKey.get(id);
    if (!lane) {
      const selector = [...animation.target.hosts, animation.target.selector].join(' › ');
      lane = { owner, label: animation.target.selector.split(/\s*>\s*/).pop() || animation.target.label, selector, animations: [] };
      byKey.set(id, lane);
    }
    lane.animations.push(animation);
  }
  const order = new Map(clips.map((c, i) => [c.key, i]));
  const lanes = [...byKey.values()];
  for (const lane of lanes) lane.animations.sort((a, b) => a.start - b.start);
  lanes.sort(
    (a, b) =>
      (a.owner === null ? Infinity : (order.get(a.owner) ?? 0)) - (b.owner === null ? Infinity : (order.get(b.owner) ?? 0)) ||
      (a.animations[0]?.start ?? 0) - (b.animations[0]?.start ?? 0),
  );
  return { lanes, labels: inspection.labels ?? [], animations };
}

/** Reads the loaded composition's animations; an empty view for a runtime without inspectTimeline. */
export async function inspectAnimations(win: Window | null, clips: readonly StudioClip[]): Promise<AnimationView> {
  const inspect = (win as InspectWindow | null)?.__seekframe?.inspectTimeline;
  if (!win || typeof inspect !== 'function') return { lanes: [], labels: [], animations: [] };
  return buildLanes(await inspect(), clips, win);
}
