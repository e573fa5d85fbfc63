import { describe, expect, it } from 'vitest';
import { readPlace, writePlace } from './studio-hash.js';

describe('studio place in the URL', () => {
  it('round-trips frame, clip, zoom, the work area and the variables', () => {
    const place = { frame: 17, clip: 'title', zoom: 2, range: { in: 10, out: 29 }, vars: { title: 'Hi & bye', n: 2 } };
    expect(readPlace(writePlace(place))).toEqual(place);
    expect(writePlace({ frame: 0, zoom: 1, vars: {} })).toBe('#frame=0');
  });

  it('ignores what it cannot read', () => {
    expect(readPlace('#frame=-1&zoom=0.5&in=9&out=3&vars=%7Bnope')).toEqual({});
    expect(readPlace('#vars=%5B1%5D')).toEqual({});
  });
});
