import { describe, expect, it } from 'vitest';
import { applyAttributeChanges } from './source-edit.js';
import { timingValueProblem } from './timing-change.js';
import { setVariableDefaults } from './variable-defaults-edit.js';

const FILE = `<!doctype html>
<html data-composition-id="x" data-width="320" data-height="180" data-duration="4"
  data-composition-variables='[
    {"id": "title", "type": "string", "label": "Title", "default": "Hello"},
    {"id": "speed", "type": "number", "label": "Speed", "default": 1}
  ]'>
<body>
<!-- <div id="intro" data-start="9"> a comment that looks like the clip -->
<div id="intro"   class=box data-start="0"
     data-duration = '1' data-track-index=0>intro</div>
<div id="title" data-start="intro + 0.5" data-duration="1">title</div>
<video id="v" src="a.mp4" data-start=2></video>
<template><div id="inner" data-start="1"></div></template>
</body></html>`;

const lineOf = (needle: string): number => FILE.split('\n').findIndex((l) => l.includes(needle)) + 1;

/** The differing middle of two strings (what an edit changed). */
function diff(a: string, b: string): { removed: string; added: string } {
  let start = 0;
  while (start < a.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { removed: a.slice(start, a.length - end), added: b.slice(start, b.length - end) };
}

describe('applyAttributeChanges', () => {
  it("changes only the value's characters, whatever the quotes, spaces and order", () => {
    const at = { line: lineOf('<div id="intro"   class'), column: 1 };
    const moved = applyAttributeChanges(FILE, [{ ...at, attribute: 'data-start', value: '0.3' }], 'index.html');
    expect(diff(FILE, moved)).toEqual({ removed: '', added: '.3' });
    expect(moved).toContain('<div id="intro"   class=box data-start="0.3"\n');
    const trimmed = applyAttributeChanges(FILE, [{ ...at, attribute: 'data-duration', value: '1.25' }], 'index.html');
    expect(trimmed).toContain(`data-duration = '1.25' data-track-index=0>`);
    const track = applyAttributeChanges(FILE, [{ ...at, attribute: 'data-track-index', value: '2' }], 'index.html');
    expect(track).toContain('data-track-index=2>intro');
    // Both at once (a trim of the left edge), and back: the file is byte for byte the same.
    const both = applyAttributeChanges(
      FILE,
      [
        { ...at, attribute: 'data-start', value: '0.5' },
        { ...at, attribute: 'data-duration', value: '0.5' },
      ],
      'index.html',
    );
    const back = applyAttributeChanges(
      both,
      [
        { ...at, attribute: 'data-start', value: '0' },
        { ...at, attribute: 'data-duration', value: '1' },
      ],
      'index.html',
    );
    expect(back).toBe(FILE);
  });

  it('keeps a relative start written as the author wrote it, and quotes an unquoted value only when it must', () => {
    const title = { line: lineOf('<div id="title"'), column: 1 };
    expect(applyAttributeChanges(FILE, [{ ...title, attribute: 'data-start', value: 'intro + 0.7' }], 'i.html')).toContain(
      '<div id="title" data-start="intro + 0.7" data-duration="1">',
    );
    const video = { line: lineOf('<video'), column: 1 };
    expect(applyAttributeChanges(FILE, [{ ...video, attribute: 'data-start', value: '2.5' }], 'i.html')).toContain('data-start=2.5>');
    expect(applyAttributeChanges(FILE, [{ ...video, attribute: 'data-start', value: 'intro + 1' }], 'i.html')).toContain(
      'data-start="intro + 1">',
    );
    // A missing attribute is added after the last one.
    expect(applyAttributeChanges(FILE, [{ ...video, attribute: 'data-duration', value: '1.3' }], 'i.html')).toContain(
      '<video id="v" src="a.mp4" data-start=2 data-duration="1.3"></video>',
    );
  });

  it('finds elements inside <template>, never in comments, and refuses a place with no element', () => {
    const inner = { line: lineOf('<template>'), column: 11 };
    expect(applyAttributeChanges(FILE, [{ ...inner, attribute: 'data-start', value: '2' }], 'i.html')).toContain(
      '<template><div id="inner" data-start="2">',
    );
    expect(() => applyAttributeChanges(FILE, [{ line: lineOf('<!--'), column: 6, attribute: 'data-start', value: '1' }], 'i.html')).toThrow(
      /i\.html has no element starting at line 8, column 6/,
    );
  });
});

describe('timingValueProblem', () => {
  it('accepts timing attributes with values their parsers take, and nothing else', () => {
    expect(timingValueProblem('data-start', 'intro + 0.5')).toBeNull();
    expect(timingValueProblem('data-start', '1.25')).toBeNull();
    expect(timingValueProblem('data-duration', '0.4')).toBeNull();
    expect(timingValueProblem('data-track-index', '3')).toBeNull();
    expect(timingValueProblem('data-start', '-1')).toContain('negative');
    expect(timingValueProblem('data-duration', '1; x')).toContain('not a number of seconds');
    expect(timingValueProblem('onload', '1')).toContain('not a timing attribute');
    expect(timingValueProblem('src', 'x.mp4')).toContain('not a timing attribute');
    expect(timingValueProblem('data-start', '" onload="x')).toContain('not a start time');
  });
});

describe('setVariableDefaults', () => {
  it("replaces only the defaults' JSON values, keeping the layout of the declarations", () => {
    const out = setVariableDefaults(FILE, { title: 'Hi "you"', speed: 2 }, 'index.html');
    expect(out.split('\n').filter((line, i) => line !== FILE.split('\n')[i])).toEqual([
      `    {"id": "title", "type": "string", "label": "Title", "default": "Hi &quot;you&quot;"},`
        .replace('&quot;', '\\"')
        .replace('&quot;', '\\"'),
      `    {"id": "speed", "type": "number", "label": "Speed", "default": 2}`,
    ]);
    expect(setVariableDefaults(FILE, { speed: 1 }, 'index.html')).toBe(FILE);
    expect(() => setVariableDefaults(FILE, { nope: 1 }, 'index.html')).toThrow(/declares no variable "nope"/);
  });

  it('escapes for the quotes the attribute is written with', () => {
    const doubleQuoted =
      '<html data-composition-variables="[{&quot;id&quot;:&quot;a&quot;,&quot;type&quot;:&quot;string&quot;,&quot;default&quot;:&quot;x&quot;}]"></html>';
    expect(setVariableDefaults(doubleQuoted, { a: "it's" }, 'i.html')).toBe(
      `<html data-composition-variables="[{&quot;id&quot;:&quot;a&quot;,&quot;type&quot;:&quot;string&quot;,&quot;default&quot;:&quot;it's&quot;}]"></html>`,
    );
  });
});
