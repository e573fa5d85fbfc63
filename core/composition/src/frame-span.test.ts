import { describe, expect, it } from 'vitest';
import { frameSpanProblem, parseFrameSpan, spanFrames } from './frame-span.js';

describe('frame spans (--frames)', () => {
  it('reads first-last and single frames, both ends included', () => {
    expect(parseFrameSpan('30-59')).toEqual({ ok: true, span: { start: 30, end: 59 } });
    expect(parseFrameSpan('0 - 0')).toEqual({ ok: true, span: { start: 0, end: 0 } });
    expect(parseFrameSpan('45')).toEqual({ ok: true, span: { start: 45, end: 45 } });
    expect(parseFrameSpan({ start: 1, end: 2 })).toEqual({ ok: true, span: { start: 1, end: 2 } });
    expect(spanFrames({ start: 30, end: 59 })).toBe(30);
  });

  it.each([['30-'], ['-5'], ['a-b'], ['1e3'], [''], ['30-59-60'], ['9007199254740993']])('refuses %j with the form to use', (text) => {
    const result = parseFrameSpan(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/like 30-59|whole frame numbers/);
  });

  it('refuses objects that are not a span', () => {
    expect(parseFrameSpan({ start: 2, end: 1 })).toMatchObject({ ok: false, message: expect.stringContaining('ends before it starts') });
    expect(parseFrameSpan({ start: 1.5, end: 2 })).toMatchObject({ ok: false });
    expect(parseFrameSpan({ start: '1', end: 2 })).toMatchObject({ ok: false });
    expect(parseFrameSpan(null)).toMatchObject({ ok: false });
  });

  it('says which frames a composition has when the span does not fit', () => {
    expect(frameSpanProblem({ start: 0, end: 149 }, 150, '--frames')).toBeUndefined();
    expect(frameSpanProblem({ start: 140, end: 150 }, 150, '--frames', 30)).toBe(
      '--frames 140-150 is outside the composition: it has 150 frames at 30 fps, numbered 0-149; give --frames within 0-149',
    );
  });
});
