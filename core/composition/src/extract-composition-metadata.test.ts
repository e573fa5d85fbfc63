import { describe, expect, test } from 'vitest';
import { SeekframeError } from './errors.js';
import { extractCompositionMetadata } from './extract-composition-metadata.js';

describe('extractCompositionMetadata', () => {
  test('returns metadata for a valid composition', () => {
    const html = `<html data-composition-id="intro" data-width="1280" data-height="720" data-duration="3"
  data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hello"}]'>
<body><h1 id="t" data-start="0" data-duration="1">x</h1><div data-composition-id="c" data-composition-src="c.html" data-start="t"></div></body></html>`;
    const metadata = extractCompositionMetadata(html, { file: 'intro.html' });
    expect(metadata).toMatchObject({ id: 'intro', width: 1280, height: 720, duration: 3 });
    expect(metadata.fps).toBeUndefined();
    expect(metadata.variables).toEqual([{ id: 'title', type: 'string', label: 'Title', default: 'Hello' }]);
    expect(metadata.clips).toHaveLength(1);
    expect(metadata.subCompositions[0]).toMatchObject({ id: 'c', start: 't' });
  });

  test('throws invalid-composition naming the file, the attribute, the position and the fix', () => {
    let error: unknown;
    try {
      extractCompositionMetadata('<html data-composition-id="m" data-width="640" data-duration="x"></html>', { file: 'scenes/a.html' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SeekframeError);
    const seekframeError = error as SeekframeError;
    expect(seekframeError.code).toBe('invalid-composition');
    expect(seekframeError.stage).toBe('load');
    expect(seekframeError.message).toContain('scenes/a.html');
    expect(seekframeError.message).toContain('data-height="1080"');
    expect(seekframeError.message).toMatch(/1:\d+ data-duration="x" must be a positive number of seconds/);
    expect(seekframeError.details?.findings).toHaveLength(2);
  });

  test('throws on broken variable declarations', () => {
    const html = `<html data-composition-id="m" data-width="1" data-height="1" data-duration="1" data-composition-variables='[{"id":"a"'></html>`;
    expect(() => extractCompositionMetadata(html)).toThrow(/data-composition-variables is not valid JSON/);
  });

  test('does not throw for clip-level problems (lint reports them)', () => {
    const html = `<html data-composition-id="m" data-width="1" data-height="1" data-duration="1"><body><div data-start="nowhere"></div></body></html>`;
    expect(extractCompositionMetadata(html).clips[0]?.start).toBe('nowhere');
  });
});
