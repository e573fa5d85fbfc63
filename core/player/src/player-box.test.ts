import { describe, expect, it } from 'vitest';
import { fitPlayerBox, parseLength } from './player-box.js';

const native = { width: 1920, height: 1080 };

describe('fitPlayerBox', () => {
  it('keeps the native size without attributes', () => {
    expect(fitPlayerBox(native, {})).toEqual({ width: 1920, height: 1080, scale: 1 });
  });
  it('derives the missing side from the aspect', () => {
    expect(fitPlayerBox(native, { width: 640 })).toEqual({ width: 640, height: 360, scale: 1 / 3 });
    expect(fitPlayerBox(native, { height: 540 })).toEqual({ width: 960, height: 540, scale: 0.5 });
  });
  it('fits inside both sides', () => {
    expect(fitPlayerBox(native, { width: 960, height: 960 })).toEqual({ width: 960, height: 960, scale: 0.5 });
  });
});

describe('parseLength', () => {
  it('reads numbers and px, rejects the rest', () => {
    expect(parseLength('640')).toBe(640);
    expect(parseLength('640px')).toBe(640);
    expect(parseLength('-3')).toBeUndefined();
    expect(parseLength('wide')).toBeUndefined();
    expect(parseLength(null)).toBeUndefined();
  });
});
