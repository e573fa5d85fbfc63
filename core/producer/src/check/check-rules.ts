/**
 * Every finding `seekframe check` can report, in one table: which check makes it, how severe it
 * is and why, when it fires and what fixes it. The rule: an error only when the output is
 * certainly wrong (a render fails on it, or the video certainly misses what the page declares);
 * anything that depends on what the author meant is a warning. The checking guide's table and the
 * JSON reference's list of codes are generated from here; the corpus test holds every code to a
 * broken composition that produces exactly it (corpus/check-broken/<code>/), or to the reason
 * there is none.
 */
export interface CheckRule {
  check: 'lint' | 'page' | 'motion' | 'layout' | 'contrast' | 'audio' | 'alpha';
  /** The severity; a sentence when it depends (the lint rule's own, a flag). */
  severity: 'error' | 'warning' | string;
  /** Why it has that severity. */
  why: string;
  /** When it is reported. */
  when: string;
  fix: string;
  /** No broken composition in corpus/check-broken can show it: why, and where it is tested instead. */
  noCatalogue?: string;
}

export const CHECK_RULES = {
  'lint/<rule>': {
    check: 'lint',
    severity: 'as the lint rule',
    why: 'the same rules and severities as `seekframe lint`',
    when: 'a lint rule ([the list](./troubleshooting.md#lint-rules)) finds something in the entry file or a sub-composition',
    fix: 'as the message says',
  },
  'variables/<kind>': {
    check: 'lint',
    severity: 'warning (error with `--strict-variables`)',
    why: 'a value the composition does not declare may be meant for a newer version of it; renders take the same view',
    when: 'a `--variables` value is undeclared, of the wrong type or not an allowed option',
    fix: 'fix the value or the declaration',
  },
  'page/script-error': {
    check: 'page',
    severity: 'error',
    why: 'a render stops at the first script error',
    when: 'an author script threw, at load or at a seek; `file` has the line',
    fix: 'fix the script',
  },
  'page/missing-file': {
    check: 'page',
    severity: 'error',
    why: 'a render fails on a project file that is not there',
    when: 'a project file the page asked for does not exist; `element` and `file` point at the reference',
    fix: 'add the file or fix the path',
  },
  'page/request-failed': {
    check: 'page',
    severity: 'error',
    why: 'what the request was for is missing from every frame',
    when: 'a request outside the project failed, or answered 4xx/5xx',
    fix: 'fix the URL, or copy the file into the project',
  },
  'page/load-failed': {
    check: 'page',
    severity: 'error',
    why: 'a render fails the same way',
    when: 'the page never got ready (the message says what it waited for); the motion check is skipped',
    fix: 'as the message says',
  },
  'page/<error code>': {
    check: 'page',
    severity: 'error',
    why: 'a render fails the same way',
    when: 'the project server refused or could not fetch something (`remote-asset-failed`…), or a seek failed (`seek-timeout`…): [error codes](../reference/errors.md)',
    fix: 'as the message says',
  },
  'page/console-error': {
    check: 'page',
    severity: 'warning',
    why: 'libraries log harmless errors; renders do not fail on them',
    when: 'the page called `console.error`',
    fix: 'read it: it often explains a wrong frame',
  },
  'page/sub-composition-empty': {
    check: 'page',
    severity: 'warning',
    why: 'the runtime warning of a render (an error with `render --strict`); an empty host may be a placeholder',
    when: 'a sub-composition host lasts 0 s, has a zero-size box, or its file shows nothing ([troubleshooting](./troubleshooting.md#warnings-that-stop-a-silent-blank-video))',
    fix: 'as the message says',
  },
  'page/clip-source-unreadable': {
    check: 'page',
    severity: 'warning',
    why: 'the runtime warning of a render (an error with `render --strict`): the iframe is captured, only not frame-exact',
    when: 'an `<iframe>` whose page the runtime cannot drive (another origin)',
    fix: 'serve the page from the project, or accept that it is not frame-exact',
  },
  'motion/gsap-unregistered': {
    check: 'motion',
    severity: 'error when the timeline is paused, else warning',
    why: 'paused and outside `window.__timelines`, nothing ever moves it, in any render or preview; running, it moves forwards only, so the preview cannot scrub it back',
    when: 'a GSAP timeline or tween that is not in `window.__timelines`',
    fix: 'create it paused and register it under the composition id ([Animation](./animation.md#gsap))',
  },
  'motion/zero-duration': {
    check: 'motion',
    severity: 'warning',
    why: 'the element shows its end state throughout, which may be what was meant',
    when: 'a CSS animation or Web Animation of length 0',
    fix: 'give it a length, or set the end state in CSS',
  },
  'motion/ends-before-clip': {
    check: 'motion',
    severity: 'warning',
    why: 'only the end state is seen; whether the movement was meant to be seen is the author’s call',
    when: 'the animation is over before its element is on screen',
    fix: 'CSS: add the clip’s start to `animation-delay`; GSAP: move the tween, or register it under the clip’s `data-composition-id`',
  },
  'motion/starts-before-clip': {
    check: 'motion',
    severity: 'warning',
    why: 'its beginning is cut, which may be meant (a loop already running)',
    when: 'the animation starts before its element appears',
    fix: 'start it with the clip, by the time named',
  },
  'motion/starts-after-clip': {
    check: 'motion',
    severity: 'warning',
    why: 'it is never seen, which costs nothing but may be a leftover',
    when: 'the animation starts after its element left the screen (or after the video ends)',
    fix: 'start it earlier, or make the clip longer',
  },
  'motion/static': {
    check: 'motion',
    severity: 'error',
    why: 'the animated values change while the element is on screen, and its pixels do not: the movement the page declares is certainly missing from the video',
    when: 'the values the timeline animates differ between the sampled frames, but the element’s painted area is pixel-identical in all of them (a transform on an inline `<span>`, the element hidden or covered). Values that do not change within the composition (a long period, a step not reached) are no motion and not reported',
    fix: 'make the animation change something visible on that element',
  },
  'motion/off-screen': {
    check: 'motion',
    severity: 'error',
    why: 'it paints, but nowhere the frame shows: it is certainly missing from the video',
    when: 'a clip, an element while it is animated, or a caption element while it shows words, paints outside the frame at every sampled time (its painted bounds: stroke, shadow, outline and transforms included, united over the samples; a box of zero width or height, an SVG line, counts by its stroke)',
    fix: 'move it into the frame',
  },
  'motion/captions-never-shown': {
    check: 'motion',
    severity: 'error',
    why: 'the transcript is certainly missing from the video',
    when: 'a [caption element](./captions.md)’s transcript has segments, but none falls in the time the element is on screen',
    fix: 'give the element (or its clip) times that cover the transcript, or fix the transcript’s times',
  },
  'motion/captions-cut': {
    check: 'motion',
    severity: 'warning',
    why: 'some segments are lost, which may be a transcript trimmed on purpose',
    when: 'some segments fall outside the time the caption element is on screen',
    fix: 'make the clip (or `data-duration`) cover the transcript, or trim it',
  },
  'motion/captions-empty': {
    check: 'motion',
    severity: 'warning',
    why: 'hiding the burned-in captions (keeping only the `--captions` file) may be meant',
    when: 'while a segment is active and the element is on screen, nothing of it has a size (`display: none` on a parent, `font-size: 0`)',
    fix: 'fix the element’s CSS, unless only the `--captions` file was meant',
  },
  'motion/blank': {
    check: 'motion',
    severity: 'error',
    why: 'a video of one flat colour is what a page that failed looks like; it shows nothing the page declares',
    when: 'every sampled frame is one flat colour',
    fix: 'see the page findings; check clips fall inside the duration',
  },
  'motion/not-sampled': {
    check: 'motion',
    severity: 'warning',
    why: 'nothing is known to be wrong; some elements were not checked',
    when: 'more animated elements than `--samples` frames allow',
    fix: 'raise `--samples`',
  },
  'layout/text-overflow': {
    check: 'layout',
    severity: 'warning',
    why: 'text bleeding out of a card, or cut by it, may be a design choice',
    when: 'text at rest runs out of the box it belongs in (the nearest element that paints a background or border, or clips), or is cut by an ancestor that clips it, at a sampled time',
    fix: 'give the text room (a bigger box, a smaller font, wrapping), or end it with `text-overflow: ellipsis` if the cut is meant',
  },
  'layout/text-cut': {
    check: 'layout',
    severity: 'warning',
    why: 'a word cut by the frame edge may be a deliberate crop',
    when: 'text at rest is partly outside the frame at a sampled time (text that slides in or out is animated then, and not judged)',
    fix: 'move it inward, make it smaller, or let it wrap',
  },
  'layout/text-overlap': {
    check: 'layout',
    severity: 'warning',
    why: 'text over text is usually a collision, but layered type is a style too',
    when: 'the glyph areas of two texts at rest overlap by a tenth of the smaller one or more, at a sampled time (the same words twice, an echo effect, do not count)',
    fix: 'give each its own space, or an opaque background to the one on top',
  },
  'contrast/low': {
    check: 'contrast',
    severity: 'warning',
    why: 'WCAG AA is a reading aid, not a rule of video design; the author decides',
    when: 'text at rest has less contrast than WCAG AA (4.5:1; 3:1 for 24 px, or 18.66 px bold) against the pixels behind its glyphs in the rendered frame (see below)',
    fix: 'more difference in lightness between the text and what is behind it (a scrim, a shadow), or larger text',
  },
  'audio/silent': {
    check: 'audio',
    severity: 'warning',
    why: 'a silent track is sometimes placed on purpose (a pause, a placeholder)',
    when: 'a declared audio clip (`<audio>`, or `<video data-has-audio>`) peaks below -60 dBFS over the part that plays',
    fix: 'check the file and `data-media-start`, or remove the clip',
  },
  'audio/clipping': {
    check: 'audio',
    severity: 'warning',
    why: 'a peak at full scale is usually distortion, but a limited master can touch 0 dBFS without it',
    when: 'a clip (after its `data-volume`) or the mix of all clips peaks at or above 0 dBFS',
    fix: 'lower `data-volume` (or the source’s gain) until the peak is below -1 dBFS',
  },
  'audio/loudness': {
    check: 'audio',
    severity: 'warning',
    why: 'loudness is a choice; the target is where streaming services turn a video up or down',
    when: 'the integrated loudness (EBU R128) of the mix differs from the target (`--loudness-target`, -14 LUFS) by more than 5 LU',
    fix: 'raise or lower the clips’ `data-volume` (or the sources’ gain) by the difference',
  },
  'alpha/lost': {
    check: 'alpha',
    severity: 'error',
    why: 'the transparency the page has is certainly missing from the file; a render fails on it (`alpha-lost`)',
    when: 'the page has transparent pixels but the encoded file does not',
    fix: 'check ffmpeg’s encoder (`seekframe doctor`), or render png-sequence',
    noCatalogue: 'needs an ffmpeg that drops alpha, not a composition; core/producer/test/check-composition.test.ts runs check with one',
  },
  'alpha/opaque': {
    check: 'alpha',
    severity: 'warning',
    why: 'an opaque video in a transparent format is valid, only larger than needed',
    when: 'a transparent format was asked for, but the page paints every pixel',
    fix: 'leave the background transparent, or render mp4',
  },
  'alpha/unchecked': {
    check: 'alpha',
    severity: 'warning',
    why: 'nothing is known to be wrong',
    when: 'this ffmpeg has no decoder that reads VP9 alpha (`libvpx-vp9`)',
    fix: 'install an ffmpeg with libvpx',
    noCatalogue: 'needs an ffmpeg without libvpx, not a composition; every ffmpeg this project is tested with has it',
  },
} as const satisfies Record<string, CheckRule>;

export type CheckRuleCode = keyof typeof CHECK_RULES;

/** The table entry of a finding's code (`lint/timing/overlap` -> `lint/<rule>`). */
export function ruleOf(code: string): CheckRule | undefined {
  if (code in CHECK_RULES) return CHECK_RULES[code as CheckRuleCode];
  if (code.startsWith('lint/')) return CHECK_RULES['lint/<rule>'];
  if (code.startsWith('variables/')) return CHECK_RULES['variables/<kind>'];
  if (code.startsWith('page/')) return CHECK_RULES['page/<error code>'];
  return undefined;
}
