/**
 * A script that registers a timeline (`window.__timelines["id"] = tl`, or HyperFrames' anime.js
 * `hyperframesAnime.register("id", tl)`) gives its composition a length in the page. Read from the
 * file's text: lint cannot run the script, so the length itself is only known once the page loaded.
 */
const TIMELINE_REGISTRATION = /__timelines\b|hyperframesAnime\s*\.\s*register\b/;

export function registersTimeline(html: string): boolean {
  return TIMELINE_REGISTRATION.test(html);
}
