/**
 * The attributes a composition is written with: one registry. The parser, the linter and the
 * runtime read attribute names from `ATTR`, and the docs site's attribute reference is generated
 * from `COMPOSITION_ATTRIBUTES`; a test (composition-attributes.test.ts) fails when the source
 * names a `data-*` attribute that is in neither this registry nor the runtime's own markers, so
 * the documented format cannot drift from what the code reads.
 */
export const ATTR = {
  compositionId: 'data-composition-id',
  width: 'data-width',
  height: 'data-height',
  duration: 'data-duration',
  fps: 'data-fps',
  variables: 'data-composition-variables',
  start: 'data-start',
  trackIndex: 'data-track-index',
  mediaStart: 'data-media-start',
  hasAudio: 'data-has-audio',
  volume: 'data-volume',
  compositionSrc: 'data-composition-src',
  variableValues: 'data-variable-values',
  colorGrading: 'data-color-grading',
  root: 'data-root',
  captions: 'data-captions',
  captionLines: 'data-caption-lines',
} as const;

export type CompositionAttribute = (typeof ATTR)[keyof typeof ATTR];

export interface AttributeDoc {
  /** The attribute as written in HTML (`class="clip"` for the one class the runtime reads). */
  name: CompositionAttribute | 'class="clip"';
  /** Which elements carry it. */
  on: string;
  /** What its value is. */
  value: string;
  /** What it does. */
  meaning: string;
}

/** In the order a reader meets them: the root, clips, media, sub-compositions, grading. */
export const COMPOSITION_ATTRIBUTES: readonly AttributeDoc[] = [
  {
    name: ATTR.compositionId,
    on: 'root, sub-composition host',
    value: 'a name',
    meaning:
      "The composition's name; GSAP timelines register under it in `window.__timelines`. On a host it names that instance (other clips may start after it). A root without one is called `main` (lint warns `root/missing-id`).",
  },
  {
    name: ATTR.width,
    on: 'root, sub-composition host',
    value: 'positive whole pixels',
    meaning:
      "Frame width; mp4 needs an even number. The entry's root needs it; a file mounted by a host may leave it out and fills the host's box. On a host whose CSS gives it no width, its box's width.",
  },
  {
    name: ATTR.height,
    on: 'root, sub-composition host',
    value: 'positive whole pixels',
    meaning:
      "Frame height; mp4 needs an even number. The entry's root needs it; a file mounted by a host may leave it out and fills the host's box. On a host whose CSS gives it no height, its box's height.",
  },
  {
    name: ATTR.duration,
    on: 'root, clip, sub-composition host',
    value: 'seconds (positive on the root, 0 or more on a clip)',
    meaning:
      "On the root: the length, read once when the render starts (a script that changes it later changes nothing). Without it, the length of the timeline the file registers in `window.__timelines` (read in the page; lint notes `root/duration-from-timeline`). On a clip: seconds visible; without it the clip lasts to the end (media: its natural length, read after scripts ran). A child file's root may leave it to its host.",
  },
  {
    name: ATTR.root,
    on: 'a composition element',
    value: '`true`',
    meaning:
      "Marks the composition root explicitly (HyperFrames' marker). Without it the root is `<html>` when it has `data-width`, else the first top-level composition element with dimensions and `data-duration` (so a sized background `<canvas data-composition-id>` with no length may come first), else the first with dimensions.",
  },
  {
    name: ATTR.fps,
    on: 'root',
    value: 'positive number',
    meaning: 'Default frame rate; 30 when absent. `--fps` overrides it.',
  },
  {
    name: ATTR.variables,
    on: '`<html>` (or the root)',
    value: 'JSON array of variable declarations',
    meaning: 'What a render may change; see the variable declaration schema.',
  },
  {
    name: ATTR.start,
    on: 'any element',
    value: 'seconds (`1.5`), an id (`intro`), or an id with an offset (`intro + 0.5`, `intro - 0.5`)',
    meaning:
      'Makes the element a clip, visible only inside `[start, start + duration)`. An id means "right after that clip or composition ends". Unknown ids and cycles are errors.',
  },
  {
    name: ATTR.trackIndex,
    on: 'clip',
    value: 'whole number',
    meaning: 'Track number; clips that overlap on one track are a lint warning.',
  },
  {
    name: 'class="clip"',
    on: 'any element',
    value: '',
    meaning: 'A clip too (HyperFrames style), timed by `data-start`/`data-duration`.',
  },
  {
    name: ATTR.mediaStart,
    on: '`<video>`, `<audio>`',
    value: 'seconds, 0 or more',
    meaning: 'Seconds trimmed from the head of the source.',
  },
  {
    name: ATTR.hasAudio,
    on: '`<video>`',
    value: 'present, or any value but `false`',
    meaning: "Mix this video's sound into the output (`<audio>` is always mixed).",
  },
  {
    name: ATTR.volume,
    on: '`<video>`, `<audio>`',
    value: '0 to 1, default 1',
    meaning: 'Volume of the clip in the mix and in the player.',
  },
  {
    name: ATTR.compositionSrc,
    on: 'host element',
    value: 'path of an HTML file, relative to the including file',
    meaning: "Embeds another composition file, isolated in its own frame inside the host's box; the host's `data-start` offsets its time.",
  },
  {
    name: ATTR.variableValues,
    on: 'host element',
    value: 'JSON object',
    meaning: "Values for the embedded composition's variables, per instance.",
  },
  {
    name: ATTR.colorGrading,
    on: '`<img>`, `<video>`, sub-composition host',
    value: 'JSON object',
    meaning: "Grades the element's pixels (see Colour grading); a field whose whole value is `$name` takes a variable.",
  },
  {
    name: ATTR.captions,
    on: 'any element (usually a `<div>`)',
    value: 'the id of a variable of type `captions`',
    meaning:
      "Shows that caption track: the words of the segment spoken at each moment, broken into lines that fit the element's width (CJK-aware), each word as a span with a class saying whether it is active, spoken or upcoming (see Captions).",
  },
  {
    name: ATTR.captionLines,
    on: 'a `data-captions` element',
    value: 'whole number, default 2',
    meaning: 'Lines shown at once; a segment that needs more is shown as several pages, each from its first word on.',
  },
];

/**
 * Attributes the runtime and the servers put on elements themselves (markers, never written by
 * an author): `data-seekframe*`. Listed so the drift test can tell them from a forgotten entry.
 */
export const INTERNAL_ATTRIBUTE_PREFIX = 'data-seekframe';
