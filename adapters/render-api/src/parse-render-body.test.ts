import { describe, expect, it } from 'vitest';
import { extractCompositionMetadata, SeekframeError } from '@seekframe/composition';
import { checkRenderDemand, checkRenderVariables, parseRenderBody, renderFrames } from './parse-render-body.js';

const metadata = extractCompositionMetadata(`<html data-composition-id="c" data-width="160" data-height="90" data-duration="2" data-fps="10"
  data-composition-variables='[{"id":"title","type":"string","label":"T","default":"a","maxLength":5},
  {"id":"n","type":"number","label":"N","default":1,"min":0,"max":3},
  {"id":"mode","type":"enum","label":"M","default":"x","options":[{"value":"x","label":"X"},{"value":"y","label":"Y"}]},
  {"id":"on","type":"boolean","label":"On","default":true},{"id":"tint","type":"color","label":"C","default":"#000000"}]'></html>`);

function thrown(fn: () => unknown): SeekframeError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SeekframeError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('parseRenderBody', () => {
  it('accepts an empty object and the documented fields', () => {
    expect(parseRenderBody({})).toEqual({});
    expect(parseRenderBody({ variables: { a: 1 }, format: 'webm', quality: 'draft', fps: 24 })).toEqual({
      variables: { a: 1 },
      format: 'webm',
      quality: 'draft',
      fps: 24,
    });
  });

  it('refuses unknown fields, bad option values and non-objects with invalid-body, naming each field', () => {
    const error = thrown(() => parseRenderBody({ format: 'avi', fps: 2.5, extra: 1 }));
    expect(error.code).toBe('invalid-body');
    expect(error.message).toContain('extra');
    expect((error.details!.problems as { field: string }[]).map((p) => p.field).sort()).toEqual(['body', 'format', 'fps']);
    expect(thrown(() => parseRenderBody([])).code).toBe('invalid-body');
    expect(thrown(() => parseRenderBody(null)).code).toBe('invalid-body');
    expect(thrown(() => parseRenderBody({ fps: 241 })).code).toBe('invalid-body');
    expect(thrown(() => parseRenderBody({ format: 'png-sequence' })).code).toBe('invalid-body');
    // A folder format gets a reason, not only the list of formats.
    const hls = thrown(() => parseRenderBody({ format: 'hls' }));
    expect(hls.code).toBe('invalid-body');
    expect(hls.message).toMatch(
      /format: hls writes a folder of files \(a playlist and its segments\), and this API answers with one file; use one of mp4, webm, mov, gif, or `seekframe render --format hls`/,
    );
  });
});

describe('checkRenderVariables (strict)', () => {
  it('passes declared values of the right type and range', () => {
    expect(checkRenderVariables({ title: 'abc', n: 3, mode: 'y', on: false, tint: '#ff0000' }, metadata)).toEqual({
      title: 'abc',
      n: 3,
      mode: 'y',
      on: false,
      tint: '#ff0000',
    });
    expect(checkRenderVariables(undefined, metadata)).toEqual({});
  });

  it('lists every problem of one request in one invalid-variables error', () => {
    const error = thrown(() => checkRenderVariables({ title: 'too long', n: 4, mode: 'z', on: 'yes', tint: 'red', ghost: 1 }, metadata));
    expect(error.code).toBe('invalid-variables');
    const problems = error.details?.problems as { id: string; kind: string }[];
    expect(problems.map((p) => `${p.id}:${p.kind}`).sort()).toEqual([
      'ghost:undeclared',
      'mode:enum-out-of-range',
      'n:type-mismatch',
      'on:type-mismatch',
      'tint:type-mismatch',
      'title:type-mismatch',
    ]);
  });

  it('null is a value, not an absence', () => {
    expect(thrown(() => checkRenderVariables({ n: null }, metadata)).details?.problems).toHaveLength(1);
  });

  it('variables that are not an object are one problem', () => {
    const error = thrown(() => checkRenderVariables(['a'], metadata));
    expect(error.code).toBe('invalid-variables');
    expect(error.details?.problems).toEqual([expect.objectContaining({ kind: 'not-an-object' })]);
  });
});

describe('checkRenderDemand', () => {
  it('counts frames like the producer and refuses over the frame or pixel limit with limit-exceeded', () => {
    expect(renderFrames(2, 10)).toBe(20);
    expect(renderFrames(0.01, 10)).toBe(1);
    expect(checkRenderDemand(metadata, 10, { maxFrames: 20, maxPixels: 160 * 90 })).toBe(20);
    const frames = thrown(() => checkRenderDemand(metadata, 30, { maxFrames: 20, maxPixels: 160 * 90 }));
    expect(frames.code).toBe('limit-exceeded');
    expect(frames.details).toMatchObject({ limit: 'maxFrames', value: 60, max: 20 });
    const pixels = thrown(() => checkRenderDemand(metadata, 10, { maxFrames: 20, maxPixels: 100 }));
    expect(pixels.details).toMatchObject({ limit: 'maxPixels', value: 14400 });
  });

  it('frames: the span counts against the limit, and a span past the last frame is invalid-body naming frames', () => {
    expect(checkRenderDemand(metadata, 30, { maxFrames: 20, maxPixels: 160 * 90 }, { start: 10, end: 29 })).toBe(20);
    const outside = thrown(() => checkRenderDemand(metadata, 10, { maxFrames: 100, maxPixels: 160 * 90 }, { start: 5, end: 20 }));
    expect(outside.code).toBe('invalid-body');
    expect(outside.details?.problems).toEqual([{ field: 'frames', message: expect.stringContaining('numbered 0-19') }]);
    const over = thrown(() => checkRenderDemand(metadata, 30, { maxFrames: 20, maxPixels: 160 * 90 }, { start: 0, end: 20 }));
    expect(over.details).toMatchObject({ limit: 'maxFrames', value: 21 });
  });
});

describe('still in the body', () => {
  it('takes {time} in any time form or {frame}, and names the field for anything else', () => {
    expect(parseRenderBody({ still: { time: '1.5s' } }).still).toEqual({ time: 1.5 });
    expect(parseRenderBody({ still: { time: '1500ms' } }).still).toEqual({ time: 1.5 });
    expect(parseRenderBody({ still: { time: 2 } }).still).toEqual({ time: 2 });
    expect(parseRenderBody({ still: { frame: 45 } }).still).toEqual({ frame: 45 });
    for (const still of [{ time: 'soon' }, { frame: 1.5 }, { time: 1, frame: 2 }, {}, '1s', { at: 1 }]) {
      const error = thrown(() => parseRenderBody({ still }));
      expect(error.code).toBe('invalid-body');
      expect((error.details!.problems as { field: string }[]).map((p) => p.field)).toEqual(['still']);
    }
  });

  it('a still counts one frame against the limit; past the end is invalid-body naming still', () => {
    expect(checkRenderDemand(metadata, 10, { maxFrames: 1, maxPixels: 160 * 90 }, undefined, { time: 1.95 })).toBe(1);
    const late = thrown(() => checkRenderDemand(metadata, 10, { maxFrames: 100, maxPixels: 160 * 90 }, undefined, { time: 2 }));
    expect(late.code).toBe('invalid-body');
    expect(late.details?.problems).toEqual([{ field: 'still', message: expect.stringContaining('still.time 2s is past the end') }]);
    const frame = thrown(() => checkRenderDemand(metadata, 10, { maxFrames: 100, maxPixels: 160 * 90 }, undefined, { frame: 20 }));
    expect(frame.message).toContain('still.frame 20 is past the end');
  });
});

describe('frames in the body', () => {
  it('takes "30-59", "45" or {start, end}, and names the field for anything else', () => {
    expect(parseRenderBody({ frames: '30-59' }).frames).toEqual({ start: 30, end: 59 });
    expect(parseRenderBody({ frames: '45' }).frames).toEqual({ start: 45, end: 45 });
    expect(parseRenderBody({ frames: { start: 1, end: 2 } }).frames).toEqual({ start: 1, end: 2 });
    for (const frames of ['59-30', '1.5', 3, { start: 1 }, { start: 1, end: 2, step: 1 }, { start: -1, end: 2 }]) {
      const error = thrown(() => parseRenderBody({ frames }));
      expect(error.code).toBe('invalid-body');
      expect((error.details!.problems as { field: string }[]).map((p) => p.field)).toEqual(['frames']);
    }
  });
});
