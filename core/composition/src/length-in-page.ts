/**
 * What gives a composition without `data-duration` its length once its page runs, read from the
 * file's text (lint cannot run scripts, so the length itself is only known in the page):
 * - `timeline`: a script registers a timeline (`window.__timelines["id"] = tl`, or HyperFrames'
 *   anime.js `hyperframesAnime.register("id", tl)`): its length;
 * - `animations`: CSS animations or Web Animations (`el.animate(...)`), all finite: where the last
 *   one ends (as HyperFrames infers it);
 * - `infinite-animations`: CSS animations, one of them infinite and no Web Animation: no length
 *   follows from them (an endless spinner says nothing of how long the video is);
 * - undefined: nothing.
 */
export type LengthInPage = 'timeline' | 'animations' | 'infinite-animations';

const TIMELINE_REGISTRATION = /__timelines\b|hyperframesAnime\s*\.\s*register\b/;
const CSS_ANIMATION = /\banimation(?:-name)?\s*:/i;
const INFINITE_CSS_ANIMATION = /\banimation(?:-iteration-count)?\s*:[^;{}"]*(?<![\w-])infinite(?![\w-])/i;
/** `el.animate([...])`, `el.animate({...})`, `el.animate(keyframes, ...)`: the Web Animations API. */
const WEB_ANIMATION = /\.animate\s*\(\s*[[{$A-Za-z_]/;

export function lengthInPage(html: string): LengthInPage | undefined {
  const text = html.replace(/<!--[\s\S]*?-->/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  if (TIMELINE_REGISTRATION.test(text)) return 'timeline';
  const web = WEB_ANIMATION.test(text);
  if (!web && !CSS_ANIMATION.test(text)) return undefined;
  return !web && INFINITE_CSS_ANIMATION.test(text) ? 'infinite-animations' : 'animations';
}
