import { isRendered } from './painted-box.js';

/** The id of the runtime's own animations: the animation seeker leaves them alone. */
export const RUNTIME_ANIMATION_ID = 'seekframe-hide-text';

const hiding = new WeakMap<Document, Animation[]>();

/**
 * Makes the glyphs of every text in `doc` transparent, or brings them back. Done with Web
 * Animations rather than a style sheet: a change of computed value caused by an animation starts
 * no CSS transition, and no author transition (running or paused by the seeker) is cancelled, so
 * the page is exactly as it was once they are cancelled. Shadows and strokes stay: they are part
 * of what the fill is read against.
 */
export function hideText(doc: Document, hidden: boolean): void {
  for (const animation of hiding.get(doc) ?? []) animation.cancel();
  hiding.delete(doc);
  if (!hidden || !doc.body) return;
  const animations: Animation[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    if (!hasOwnText(el) || !isRendered(el)) continue;
    const svg = el instanceof SVGElement;
    const keyframe: Keyframe = svg ? { fill: 'transparent' } : { color: 'transparent', webkitTextFillColor: 'transparent' };
    // Two equal keyframes and fill both: transparent at any time the animation is at.
    animations.push(el.animate([keyframe, keyframe], { duration: 1e9, fill: 'both', id: RUNTIME_ANIMATION_ID }));
  }
  hiding.set(doc, animations);
}

function hasOwnText(el: Element): boolean {
  for (const child of Array.from(el.childNodes)) if (child.nodeType === 3 && child.textContent?.trim()) return true;
  return false;
}
