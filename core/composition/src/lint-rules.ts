/**
 * Every rule `seekframe lint` reports: one registry, read by the linter (a finding's severity
 * comes from here) and by the docs (docs/reference/lint-rules.md is generated from it). A rule's
 * `example` is a project that triggers it: lint-rules.test.ts lints each example and fails when
 * the rule does not fire, so the page cannot show an example that no longer applies.
 *
 * Severities: `error` stops the render (the composition cannot render as written); `warning`
 * renders, but probably not as meant; `info` is a note on how Seekframe reads a valid composition
 * (where a length comes from), nothing to fix.
 */
export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintRuleDoc {
  severity: LintSeverity;
  /** When the rule fires, in one sentence. */
  when: string;
  /** What to do (the finding's message says it with the names filled in). */
  fix: string;
  /** A project that triggers the rule: `index.html` is the entry; a string is `index.html` alone. */
  example: string | Record<string, string>;
  /** Paths of the example that exist but cannot be read (no read permission). */
  unreadable?: readonly string[];
}

const ROOT = 'data-composition-id="main" data-width="1280" data-height="720" data-duration="4"';
/** A one-file composition with `body` inside and `attrs` on `<html>`. */
const page = (body: string, attrs = ROOT): string => `<html ${attrs}><body>\n${body}\n</body></html>`;
const variables = (json: string): string => page('', `${ROOT} data-composition-variables='${json}'`);
const child = (body: string, attrs = 'data-composition-id="card" data-width="640" data-height="360"'): string =>
  `<html ${attrs}><body>\n${body}\n</body></html>`;

export const LINT_RULES = {
  'project/missing-entry': {
    severity: 'error',
    when: 'the file given to lint (or a folder without `index.html`) does not exist.',
    fix: "Pass the path of the composition's HTML file.",
    example: { 'other.html': page('') },
  },
  'project/missing-file': {
    severity: 'error',
    when: 'a file a page loads is not in the project: the `src` of `<img>`, `<video>`, `<audio>`, `<source>`, `<track>`, `<script>`, `<iframe>` or `<embed>`, a `poster`, SVG `<image href>`, a `<link href>` the browser fetches (stylesheet, preload), or a `url()` or `@import` in `<style>`, `style=""` or a project stylesheet. Paths resolve as the browser asks the render\'s server (relative to the document or stylesheet, `/` from the project folder, query and fragment dropped); the render would stop at it (`asset-not-found`). What a script builds at run time is found by the render.',
    fix: 'Add the file to the project, or fix the path.',
    example: page('<img src="logo.png" alt="">'),
  },
  'project/unreadable-file': {
    severity: 'error',
    when: 'a file a page loads exists but the render cannot read it: no read permission, or (in a sandboxed render) a symlink that leads out of the project.',
    fix: 'Put a readable copy of the file inside the project folder.',
    example: page('<img src="logo.png" alt="">'),
    unreadable: ['logo.png'],
  },
  'root/missing-root': {
    severity: 'error',
    when: 'the file has no composition root: no `<html>` or element with `data-composition-id`, `data-width` or `data-height`.',
    fix: 'Add `data-composition-id`, `data-width`, `data-height` (and `data-duration`) to `<html>` or to the composition element.',
    example: '<p>Hello</p>',
  },
  'root/missing-id': {
    severity: 'warning',
    when: 'the root has no `data-composition-id`; the composition is called `main`.',
    fix: 'Add `data-composition-id="main"` (timelines and sub-compositions name it).',
    example: page('', 'data-width="1280" data-height="720" data-duration="4"'),
  },
  'root/missing-width': {
    severity: 'error',
    when: 'the root of the entry file has no `data-width`. A file mounted by a host (`data-composition-src`) takes its size from the host and needs none.',
    fix: 'Add `data-width="1920"` (whole pixels) to the root.',
    example: page('', 'data-composition-id="main" data-height="720" data-duration="4"'),
  },
  'root/missing-height': {
    severity: 'error',
    when: 'the root of the entry file has no `data-height`. A file mounted by a host takes its size from the host and needs none.',
    fix: 'Add `data-height="1080"` (whole pixels) to the root.',
    example: page('', 'data-composition-id="main" data-width="1280" data-duration="4"'),
  },
  'root/missing-duration': {
    severity: 'error',
    when: 'the root of the entry file has no `data-duration`, the file registers no timeline (`window.__timelines`, `hyperframesAnime.register`) and has no finite CSS animation or Web Animation whose end could decide it (an infinite CSS animation gives no length).',
    fix: 'Add `data-duration="5"` (seconds) to the root, or register the composition\'s GSAP timeline in `window.__timelines["<id>"]`.',
    example: page('', 'data-composition-id="main" data-width="1280" data-height="720"'),
  },
  'root/duration-from-timeline': {
    severity: 'info',
    when: 'the root of the entry file has no `data-duration` and the file registers a timeline: the composition lasts as long as that timeline, read in the page when the render (or check, or the preview) loads it.',
    fix: 'Nothing to fix. Add `data-duration` to the root to fix the length in the file instead.',
    example: page(
      '<script>window.__timelines = window.__timelines || {}; window.__timelines["main"] = gsap.timeline({ paused: true });</script>',
      'data-composition-id="main" data-width="1280" data-height="720"',
    ),
  },
  'root/duration-from-animations': {
    severity: 'info',
    when: 'the root of the entry file has no `data-duration`, registers no timeline, and animates with CSS animations or Web Animations, all finite: the composition lasts until the last one ends, read in the page (as HyperFrames infers it).',
    fix: 'Nothing to fix. Add `data-duration` to the root to fix the length in the file instead (an infinite CSS animation gives no length: then it is needed).',
    example: `<html data-composition-id="main" data-width="1280" data-height="720"><head><style>
.box { width: 100px; height: 100px; background: #e9c46a; animation: slide 2s linear both; }
@keyframes slide { to { transform: translateX(600px); } }
</style></head><body><div class="box"></div></body></html>`,
  },
  'root/invalid-width': {
    severity: 'error',
    when: '`data-width` on the root is not a positive whole number of pixels.',
    fix: 'Write a whole number, e.g. `data-width="1920"`.',
    example: page('', 'data-composition-id="main" data-width="-5" data-height="720" data-duration="4"'),
  },
  'root/invalid-height': {
    severity: 'error',
    when: '`data-height` on the root is not a positive whole number of pixels.',
    fix: 'Write a whole number, e.g. `data-height="1080"`.',
    example: page('', 'data-composition-id="main" data-width="1280" data-height="tall" data-duration="4"'),
  },
  'root/invalid-duration': {
    severity: 'error',
    when: '`data-duration` on the root is not a positive number of seconds.',
    fix: 'Write seconds, e.g. `data-duration="5"`.',
    example: page('', 'data-composition-id="main" data-width="1280" data-height="720" data-duration="0"'),
  },
  'root/invalid-fps': {
    severity: 'error',
    when: '`data-fps` on the root is not a positive number.',
    fix: 'Write e.g. `data-fps="30"`, or remove it to use the render\'s fps.',
    example: page('', `${ROOT} data-fps="0"`),
  },
  'variables/malformed-json': {
    severity: 'error',
    when: '`data-composition-variables` is not valid JSON (the finding points at the character).',
    fix: 'Write a JSON array with double-quoted keys and strings.',
    example: variables('[{"id":"title",}]'),
  },
  'variables/not-array': {
    severity: 'error',
    when: '`data-composition-variables` is JSON but not an array.',
    fix: 'Wrap the declarations in `[ … ]`.',
    example: variables('{"id":"title"}'),
  },
  'variables/not-object': {
    severity: 'error',
    when: 'an entry of `data-composition-variables` is not an object.',
    fix: 'Write each declaration as `{"id", "type", "label", "default"}`.',
    example: variables('[42]'),
  },
  'variables/missing-field': {
    severity: 'error',
    when: 'a declaration lacks `id`, `type`, `label` or `default`.',
    fix: 'Add the field the message names.',
    example: variables('[{"id":"title","type":"string","default":"Hi"}]'),
  },
  'variables/unknown-type': {
    severity: 'error',
    when: "a declaration's `type` is not one of string, number, color, boolean, enum, captions.",
    fix: 'Use one of the types on [Variables](../guide/variables.md).',
    example: variables('[{"id":"day","type":"date","label":"Day","default":"x"}]'),
  },
  'variables/default-type': {
    severity: 'error',
    when: "a declaration's `default` does not fit its type or its own limits.",
    fix: 'Change the default (or the limits) so they agree.',
    example: variables('[{"id":"speed","type":"number","label":"Speed","default":"5"}]'),
  },
  'variables/duplicate-id': {
    severity: 'error',
    when: 'two declarations share an `id`.',
    fix: 'Rename one of them.',
    example: variables('[{"id":"a","type":"boolean","label":"A","default":true},{"id":"a","type":"boolean","label":"B","default":false}]'),
  },
  'variables/enum-empty': {
    severity: 'error',
    when: 'an `enum` declaration has no options.',
    fix: 'List at least one `{"value", "label"}` option.',
    example: variables('[{"id":"look","type":"enum","label":"Look","default":"x","options":[]}]'),
  },
  'variables/enum-duplicate-option': {
    severity: 'error',
    when: 'an `enum` declaration lists one value twice.',
    fix: 'Remove or rename the repeated option.',
    example: variables(
      '[{"id":"look","type":"enum","label":"Look","default":"x","options":[{"value":"x","label":"X"},{"value":"x","label":"Y"}]}]',
    ),
  },
  'variables/invalid-field': {
    severity: 'error',
    when: 'another field of a declaration has a wrong value (e.g. a negative `maxLength`).',
    fix: 'Fix the field the message names.',
    example: variables('[{"id":"title","type":"string","label":"Title","default":"x","maxLength":-1}]'),
  },
  'variables/unknown-reference': {
    severity: 'error',
    when: '`$name` in `data-color-grading`, or `data-captions="name"`, names no variable declared in that file.',
    fix: 'Declare the variable in `data-composition-variables` or fix the name.',
    example: page('<div data-captions="speech"></div>'),
  },
  'variables/reference-type': {
    severity: 'error',
    when: '`$name` names a variable whose type cannot feed that field; `data-captions` names a variable that is not of type `captions`.',
    fix: 'Reference a variable of the right type, or change its declaration.',
    example: page(
      '<div data-captions="title"></div>',
      `${ROOT} data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hi"}]'`,
    ),
  },
  'timing/invalid-start': {
    severity: 'error',
    when: '`data-start` is neither seconds nor `<id>`, `<id> + s`, `<id> - s`.',
    fix: 'Write `1.5`, `intro` or `intro + 0.5`.',
    example: page('<p data-start="1s" data-duration="1">Hi</p>'),
  },
  'timing/unknown-ref': {
    severity: 'error',
    when: '`data-start` names an id no clip or composition has.',
    fix: 'Fix the id, or give the clip it means that id.',
    example: page('<p data-start="intro" data-duration="1">Hi</p>'),
  },
  'timing/cycle': {
    severity: 'error',
    when: 'clips start after each other in a circle (named `a -> b -> a`).',
    fix: 'Give one of them a start in seconds.',
    example: page('<p id="a" data-start="b" data-duration="1">A</p>\n<p id="b" data-start="a" data-duration="1">B</p>'),
  },
  'timing/missing-duration': {
    severity: 'error',
    when: 'a clip starts after a clip that has no length (no `data-duration`, not media, not a timed sub-composition).',
    fix: 'Add `data-duration` to the clip it follows.',
    example: page('<p id="a" data-start="0">A</p>\n<p data-start="a" data-duration="1">B</p>'),
  },
  'timing/invalid-duration': {
    severity: 'error',
    when: "a clip's `data-duration` is not a number of seconds.",
    fix: 'Write seconds, e.g. `data-duration="2.5"`.',
    example: page('<p data-start="0" data-duration="two">Hi</p>'),
  },
  'timing/overlap': {
    severity: 'warning',
    when: 'two clips on one `data-track-index` overlap in time.',
    fix: 'Move one to another track or change its start.',
    example: page(
      '<p id="a" data-start="0" data-duration="2" data-track-index="0">A</p>\n<p id="b" data-start="1" data-duration="2" data-track-index="0">B</p>',
    ),
  },
  'timing/after-end': {
    severity: 'warning',
    when: 'a clip starts when the composition is already over, so it never shows.',
    fix: 'Start it earlier or raise `data-duration` on the root.',
    example: page('<p data-start="5" data-duration="1">Late</p>'),
  },
  'timing/follows-media': {
    severity: 'info',
    when: 'a clip starts after a `<video>`/`<audio>` without `data-duration`: its start is known once the render measured the file.',
    fix: 'Nothing to fix. Add `data-duration` to the media clip to make the timing explicit.',
    example: page('<video id="v" src="clip.mp4"></video>\n<p data-start="v" data-duration="1">After</p>'),
  },
  'timing/follows-timeline': {
    severity: 'info',
    when: "a clip starts after a sub-composition whose length is its registered timeline's: its start is known once the page loaded.",
    fix: 'Nothing to fix. Add `data-duration` to the host to make the timing explicit.',
    example: {
      'index.html': page(
        '<div id="intro" data-composition-id="intro" data-composition-src="intro.html" data-start="0"></div>\n<p data-start="intro" data-duration="1">After</p>',
      ),
      'intro.html': child(
        '<script>window.__timelines = window.__timelines || {}; window.__timelines["intro"] = gsap.timeline({ paused: true });</script>',
        'data-composition-id="intro"',
      ),
    },
  },
  'timing/invalid-track-index': {
    severity: 'warning',
    when: '`data-track-index` is not a whole number; it is ignored.',
    fix: 'Write a whole number: 0, 1, 2 and so on.',
    example: page('<p data-start="0" data-duration="1" data-track-index="first">Hi</p>'),
  },
  'media/invalid-media-start': {
    severity: 'error',
    when: '`data-media-start` is not a number of seconds.',
    fix: 'Write the seconds to trim from the source, e.g. `data-media-start="2"`.',
    example: page('<video src="clip.mp4" data-media-start="soon"></video>'),
  },
  'media/malformed-color-grading': {
    severity: 'error',
    when: '`data-color-grading` is not valid JSON.',
    fix: 'Write a JSON object like `{"adjust":{"contrast":1.1}}`.',
    example: page(`<img src="a.png" data-color-grading='{"adjust":{"contrast":1.1,}}'>`),
  },
  'media/invalid-color-grading': {
    severity: 'error',
    when: 'an unknown field, a value of the wrong type or out of range in `data-color-grading` (named by its path, e.g. `adjust.exposure`).',
    fix: 'See [Colour grading](../guide/colour-grading.md) for the fields and ranges.',
    example: page(`<img src="a.png" data-color-grading='{"adjust":{"saturation":3}}'>`),
  },
  'media/color-grading-ignored': {
    severity: 'warning',
    when: '`data-color-grading` is on an element that is neither `<img>`, `<video>` nor a sub-composition host.',
    fix: 'Move it to one of those.',
    example: page(`<p data-color-grading='{"preset":"warm"}'>Hi</p>`),
  },
  'media/missing-lut': {
    severity: 'error',
    when: '`lut` in `data-color-grading` names a file that does not exist, or a URL.',
    fix: 'Copy the `.cube` file into the project and give its path.',
    example: page(`<img src="a.png" data-color-grading='{"lut":"looks/film.cube"}'>`),
  },
  'media/invalid-lut': {
    severity: 'error',
    when: 'the `.cube` file does not parse (the line is named).',
    fix: 'Export the LUT again as a 3D `.cube` file.',
    example: {
      'index.html': page(`<img src="a.png" data-color-grading='{"lut":"film.cube"}'>`),
      'film.cube': 'LUT_3D_SIZE 2\n0 0 0\n',
    },
  },
  'subcomposition/missing-src-file': {
    severity: 'error',
    when: '`data-composition-src` is empty or points to a file that does not exist.',
    fix: 'Fix the path or add the file.',
    example: page('<div data-composition-id="card" data-composition-src="card.html" data-duration="2"></div>'),
  },
  'subcomposition/cycle': {
    severity: 'error',
    when: 'a file embeds itself, directly or through others (named `a.html -> b.html -> a.html`).',
    fix: 'Remove one of the `data-composition-src` links.',
    example: {
      'index.html': page('<div data-composition-id="card" data-composition-src="card.html" data-duration="2"></div>'),
      'card.html': child('<div data-composition-id="again" data-composition-src="card.html" data-duration="1"></div>'),
    },
  },
  'subcomposition/malformed-values': {
    severity: 'error',
    when: '`data-variable-values` on a host is not a JSON object.',
    fix: 'Write a JSON object like `{"title":"Hi"}`.',
    example: {
      'index.html': page(
        `<div data-composition-id="card" data-composition-src="card.html" data-duration="2" data-variable-values='{"title":}'></div>`,
      ),
      'card.html': child(''),
    },
  },
  'subcomposition/variable-type': {
    severity: 'warning',
    when: 'a host value has the wrong type for the variable the child declares.',
    fix: 'Give a value of the declared type.',
    example: {
      'index.html': page(
        `<div data-composition-id="card" data-composition-src="card.html" data-duration="2" data-variable-values='{"count":"three"}'></div>`,
      ),
      'card.html': child(
        '',
        `data-composition-id="card" data-width="640" data-height="360" data-composition-variables='[{"id":"count","type":"number","label":"Count","default":1}]'`,
      ),
    },
  },
  'subcomposition/undeclared-variable': {
    severity: 'warning',
    when: 'a host sets a value the child file does not declare; it is ignored.',
    fix: 'Remove it, or declare it in the child file.',
    example: {
      'index.html': page(
        `<div data-composition-id="card" data-composition-src="card.html" data-duration="2" data-variable-values='{"title":"Hi"}'></div>`,
      ),
      'card.html': child(''),
    },
  },
  'subcomposition/missing-id': {
    severity: 'warning',
    when: 'a `data-composition-src` host has no `data-composition-id` (it is named after the file).',
    fix: 'Add `data-composition-id` to name the instance.',
    example: { 'index.html': page('<div data-composition-src="card.html" data-duration="2"></div>'), 'card.html': child('') },
  },
  'subcomposition/missing-duration': {
    severity: 'warning',
    when: 'neither the host nor the child root has `data-duration` and the child registers no timeline and has no finite animation: the instance lasts 0 s and never shows (the render warns `sub-composition-empty`; `--strict` refuses it).',
    fix: 'Add `data-duration` to the host or to the root of the child file.',
    example: {
      'index.html': page('<div data-composition-id="card" data-composition-src="card.html"></div>'),
      'card.html': child('<p>Card</p>'),
    },
  },
  'subcomposition/duration-from-timeline': {
    severity: 'info',
    when: 'the host and the child root have no `data-duration`: the instance lasts as long as the timeline the child registers, read in the page.',
    fix: 'Nothing to fix. Add `data-duration` to the host to make the length explicit.',
    example: {
      'index.html': page('<div data-composition-id="card" data-composition-src="card.html"></div>'),
      'card.html': child(
        '<script>window.__timelines = window.__timelines || {}; window.__timelines["card"] = gsap.timeline({ paused: true });</script>',
      ),
    },
  },
  'subcomposition/duration-from-animations': {
    severity: 'info',
    when: 'the host and the child root have no `data-duration` and the child registers no timeline but animates with finite CSS animations or Web Animations: the instance lasts until the last one ends, read in the page.',
    fix: 'Nothing to fix. Add `data-duration` to the host to make the length explicit.',
    example: {
      'index.html': page('<div data-composition-id="card" data-composition-src="card.html"></div>'),
      'card.html': child('<style>p { animation: fade 1.5s both; } @keyframes fade { from { opacity: 0; } }</style><p>Card</p>'),
    },
  },
  'fonts/unresolved-family': {
    severity: 'warning',
    when: 'a family the composition names (CSS, a Google Fonts link or `@import`) that no `@font-face` loads and no installed `@fontsource` package provides; text falls back to a machine-dependent face.',
    fix: 'Install the family in the project folder (`npm i @fontsource/<name>`, the message has the command) or load it with `@font-face`.',
    example: page('<p style="font-family: \'Unknown Display Face\', sans-serif">Hi</p>'),
  },
} as const satisfies Record<string, LintRuleDoc>;

export type LintRuleId = keyof typeof LINT_RULES;

/** The rule ids in registry order (grouped by prefix). */
export const LINT_RULE_IDS = Object.keys(LINT_RULES) as LintRuleId[];

export function lintSeverity(rule: LintRuleId): LintSeverity {
  return LINT_RULES[rule].severity;
}
